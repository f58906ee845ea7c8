// How deep JSON text nests, read in one pass without parsing it. Parsing, printing, masking and
// querying walk a structure recursively (JSON.stringify overflows the stack a few thousand levels
// down), so text from outside — an API answer, a webhook body — is refused past a bound first.

/** Whether JSON text opens more than `limit` arrays and objects inside one another (one pass, no parse). */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
