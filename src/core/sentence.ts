// Closing a sentence built around words from elsewhere (a service's message, a line of a file):
// they may end their sentence already, and a second full stop reads as a typo.

/**
 * `text` ended with a full stop, unless the words it ends with already end their sentence
 * ("Use X instead.": not "Use X instead..").
 */
export function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
