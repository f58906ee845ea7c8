// Prompts go through the run's own streams so tests can drive them. Nothing here is loaded
// until a command actually asks something.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../core/errors.js';
import { BACK, GoBack } from '../core/go-back.js';
import type { Env } from '../core/env.js';

/** One entry of a list question. `disabled` (a reason) shows it greyed out and not selectable. */
export interface Choice<T extends string> {
  name: string;
  value: T;
  disabled?: string;
  checked?: boolean;
}

/** A heading line between entries (not selectable). */
export interface ChoiceSeparator {
  separator: string;
}

export type ChoiceOrSeparator<T extends string> = Choice<T> | ChoiceSeparator;

/**
 * `back: true` offers going back to the previous question: Esc at any prompt, and for lists also
 * an entry of its own. The prompt then throws GoBack; the caller decides what "previous" is.
 */
export interface BackOption {
  back?: boolean;
}

export { BACK, GoBack };

export interface Prompter {
  password(message: string): Promise<string>;
  confirm(message: string, defaultValue?: boolean, opts?: BackOption): Promise<boolean>;
  input(message: string, opts?: { default?: string; validate?: (v: string) => true | string } & BackOption): Promise<string>;
  select<T extends string>(message: string, choices: Array<{ name: string; value: T }>, opts?: { default?: T } & BackOption): Promise<T>;
  /** Several entries at once (space checks, Enter accepts); `validate` sees the checked values. */
  checkbox<T extends string>(message: string, choices: Array<ChoiceOrSeparator<T>>, opts?: { validate?: (values: T[]) => true | string } & BackOption): Promise<T[]>;
  /** One entry, found by typing: `source` is asked again for each search term. */
  search<T extends string>(message: string, source: (term: string) => Array<Choice<T>>): Promise<T>;
  /**
   * Text written in the person's editor ($VISUAL or $EDITOR of `env`), opened when they press
   * Enter; what is saved must be UTF-8 (src/run/editor.ts), else the file opens again.
   */
  editor(message: string, opts?: { default?: string; validate?: (v: string) => true | string; postfix?: string; env?: Env } & BackOption): Promise<string>;
}

const BACK_ENTRY = { name: '← Back to the previous question (or press Esc)', value: BACK };

export function inquirerPrompter(input: () => Readable, output: Writable): Prompter {
  const ctx = { get input() { return input(); }, output, clearPromptOnDone: false };
  const load = () => import('@inquirer/prompts');
  /** Runs one prompt; with `back`, Esc cancels it (inquirer's own way: an AbortSignal) as GoBack. */
  const ask = <T>(back: boolean | undefined, prompt: (m: Awaited<ReturnType<typeof load>>, c: typeof ctx & { signal?: AbortSignal }) => Promise<T>) =>
    asked(async () => {
      const m = await load();
      if (!back) return prompt(m, ctx);
      const esc = new AbortController();
      const stream = input();
      // The prompt's readline turns the terminal's bytes into 'keypress' events on its input as
      // soon as it is created (synchronously, inside the call below); a lone Esc is one of them.
      const onKey = (_: unknown, key?: { name?: string }) => {
        if (key?.name === 'escape') esc.abort();
      };
      const pending = prompt(m, { ...ctx, input: stream, signal: esc.signal });
      stream.on('keypress', onKey);
      try {
        return await pending;
      } catch (e) {
        if (esc.signal.aborted && (e as Error)?.name === 'AbortPromptError') throw new GoBack();
        throw e;
      } finally {
        stream.off('keypress', onKey);
      }
    });
  const backFrom = <T>(v: T): T => {
    if (v === BACK) throw new GoBack();
    return v;
  };
  return {
    password: (message) => ask(false, (m, c) => m.password({ message, mask: '*' }, c)),
    confirm: (message, defaultValue = false, opts = {}) => ask(opts.back, (m, c) => m.confirm({ message, default: defaultValue }, c)),
    input: (message, opts = {}) => ask(opts.back, (m, c) => m.input({ message, default: opts.default, validate: opts.validate }, c)),
    select: (message, choices, opts = {}) =>
      ask(opts.back, (m, c) => m.select({ message, choices: opts.back ? [...choices, BACK_ENTRY] : choices, default: opts.default }, c)).then(backFrom) as Promise<never>,
    checkbox: <T extends string>(message: string, choices: Array<ChoiceOrSeparator<T>>, opts: { validate?: (values: T[]) => true | string } & BackOption = {}) =>
      ask(opts.back, async (m, c) => {
        // Last, as in a select list: the cursor starts on the list's own first entry.
        const all: Array<ChoiceOrSeparator<string>> = opts.back ? [...choices, { name: '← Back to the previous question: check this and press Enter (or press Esc)', value: BACK }] : choices;
        const list = all.map((x) => ('separator' in x ? new m.Separator(x.separator) : { name: x.name, value: x.value, checked: !!x.checked, disabled: x.disabled ? `(${x.disabled})` : false }));
        const { validate } = opts;
        const check = validate && ((checked: ReadonlyArray<{ value: string }>) => (checked.some((x) => x.value === BACK) ? true : validate(checked.map((x) => x.value as T))));
        const picked = await m.checkbox<string>({ message, choices: list, pageSize: 12, loop: false, validate: check }, c);
        if (picked.includes(BACK)) throw new GoBack();
        return picked as T[];
      }),
    search: <T extends string>(message: string, source: (term: string) => Array<Choice<T>>) =>
      ask(false, (m, c) => {
        const list = (term: string | undefined) => source(term ?? '').map((x) => ({ name: x.name, value: x.value, disabled: x.disabled ? `(${x.disabled})` : false }));
        return m.search<T>({ message, pageSize: 10, source: list }, c);
      }),
    // Not inquirer's editor prompt: it guesses the saved file's encoding, so text that is not
    // UTF-8 came back as mojibake. The question is a one-entry list (Enter opens the editor, Esc
    // goes back); src/run/editor.ts runs the editor and reads the file strictly.
    editor: async (message, opts = {}) => {
      const { editText } = await import('./editor.js');
      const open = [{ name: 'Open the editor', value: 'open' as const }];
      return editText({
        initial: opts.default ?? '', postfix: opts.postfix ?? '.txt', env: opts.env ?? {}, validate: opts.validate,
        ask: async () => {
          backFrom(await ask(opts.back, (m, c) => m.select<string>({ message, choices: opts.back ? [...open, BACK_ENTRY] : open }, c)));
        },
        tell: (line) => output.write(`${line}\n`),
      });
    },
  };
}

/** Ctrl-C at a prompt (inquirer's ExitPromptError: the terminal is in raw mode, so it is a key,
 * not a signal) is an interruption like any other: exit 130, not "unexpected failure". */
async function asked<T>(prompt: () => Promise<T>): Promise<T> {
  try {
    return await prompt();
  } catch (e) {
    if (e instanceof GoBack) throw e;
    if ((e as Error)?.name === 'ExitPromptError' || (e as Error)?.name === 'AbortPromptError') throw new InterruptedError('Stopped at a question; nothing was changed by it.');
    throw e;
  }
}
