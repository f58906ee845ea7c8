// Prompts go through the run's own streams so tests can drive them. Nothing here is loaded
// until a command actually asks something.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from './errors.js';

export interface Prompter {
  password(message: string): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  input(message: string, opts?: { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  select<T extends string>(message: string, choices: Array<{ name: string; value: T }>): Promise<T>;
}

export function inquirerPrompter(input: () => Readable, output: Writable): Prompter {
  const ctx = { get input() { return input(); }, output, clearPromptOnDone: false };
  const load = () => import('@inquirer/prompts');
  return {
    password: (message) => asked(async () => (await load()).password({ message, mask: '*' }, ctx)),
    confirm: (message, defaultValue = false) => asked(async () => (await load()).confirm({ message, default: defaultValue }, ctx)),
    input: (message, opts = {}) => asked(async () => (await load()).input({ message, default: opts.default, validate: opts.validate }, ctx)),
    select: (message, choices) => asked(async () => (await load()).select({ message, choices }, ctx)),
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
