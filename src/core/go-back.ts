// "Back to the previous question": what a prompt throws when the person presses Esc or picks a
// list's Back entry (src/run/prompter.ts). A signal between a prompt and the questions' owner
// (the campaign wizard), not a failure: it never reaches main, carries no exit code.

export class GoBack extends Error {
  constructor() {
    super('back to the previous question');
    this.name = 'GoBack';
  }
}

/** The value of a list's Back entry (and a scripted "go back"); a NUL keeps it apart from any value a list could hold. */
export const BACK = '\u0000go-back';
