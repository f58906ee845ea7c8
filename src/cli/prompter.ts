// Prompts go through the run's own streams so tests can drive them. Nothing here is loaded
// until a command actually asks something.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../core/errors.js';

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

export interface Prompter {
  password(message: string): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  input(message: string, opts?: { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  select<T extends string>(message: string, choices: Array<{ name: string; value: T }>, opts?: { default?: T }): Promise<T>;
  /** Several entries at once (space checks, Enter accepts); `validate` sees the checked values. */
  checkbox<T extends string>(message: string, choices: Array<ChoiceOrSeparator<T>>, opts?: { validate?: (values: T[]) => true | string }): Promise<T[]>;
  /** One entry, found by typing: `source` is asked again for each search term. */
  search<T extends string>(message: string, source: (term: string) => Array<Choice<T>>): Promise<T>;
}

export function inquirerPrompter(input: () => Readable, output: Writable): Prompter {
  const ctx = { get input() { return input(); }, output, clearPromptOnDone: false };
  const load = () => import('@inquirer/prompts');
  return {
    password: (message) => asked(async () => (await load()).password({ message, mask: '*' }, ctx)),
    confirm: (message, defaultValue = false) => asked(async () => (await load()).confirm({ message, default: defaultValue }, ctx)),
    input: (message, opts = {}) => asked(async () => (await load()).input({ message, default: opts.default, validate: opts.validate }, ctx)),
    select: (message, choices, opts = {}) => asked(async () => (await load()).select({ message, choices, default: opts.default }, ctx)),
    checkbox: <T extends string>(message: string, choices: Array<ChoiceOrSeparator<T>>, opts: { validate?: (values: T[]) => true | string } = {}) =>
      asked(async () => {
        const m = await load();
        const list = choices.map((c) => ('separator' in c ? new m.Separator(c.separator) : { name: c.name, value: c.value, checked: !!c.checked, disabled: c.disabled ? `(${c.disabled})` : false }));
        const { validate } = opts;
        return m.checkbox<T>({ message, choices: list, pageSize: 12, loop: false, validate: validate && ((checked) => validate(checked.map((c) => c.value))) }, ctx);
      }),
    search: <T extends string>(message: string, source: (term: string) => Array<Choice<T>>) =>
      asked(async () => {
        const m = await load();
        const list = (term: string | undefined) => source(term ?? '').map((c) => ({ name: c.name, value: c.value, disabled: c.disabled ? `(${c.disabled})` : false }));
        return m.search<T>({ message, pageSize: 10, source: list }, ctx);
      }),
  };
}

/** Ctrl-C at a prompt (inquirer's ExitPromptError: the terminal is in raw mode, so it is a key,
 * not a signal) is an interruption like any other: exit 130, not "unexpected failure". */
async function asked<T>(prompt: () => Promise<T>): Promise<T> {
  try {
    return await prompt();
  } catch (e) {
    if ((e as Error)?.name === 'ExitPromptError' || (e as Error)?.name === 'AbortPromptError') throw new InterruptedError('Stopped at a question; nothing was changed by it.');
    throw e;
  }
}
