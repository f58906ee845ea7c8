// Prompts go through the run's own streams so tests can drive them. Nothing here is loaded
// until a command actually asks something.
import type { Readable, Writable } from 'node:stream';

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
    async password(message) {
      return (await load()).password({ message, mask: '*' }, ctx);
    },
    async confirm(message, defaultValue = false) {
      return (await load()).confirm({ message, default: defaultValue }, ctx);
    },
    async input(message, opts = {}) {
      return (await load()).input({ message, default: opts.default, validate: opts.validate }, ctx);
    },
    async select(message, choices) {
      return (await load()).select({ message, choices }, ctx);
    },
  };
}
