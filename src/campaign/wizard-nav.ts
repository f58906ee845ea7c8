// Going back in the wizard. Its questions depend on earlier answers (an A/B test asks versions,
// a schedule asks a zone), so "the previous question" is found by replaying, not by bookkeeping:
// the wizard's first pass runs again from the start with the answers given so far answered
// from the record, all but the last; that last question is asked again, showing the earlier
// answer as its default, and the person goes on from there. A pass is deterministic given its
// answers, so the replay reaches exactly the question before the one where Back was asked.
import type { BackOption, Choice, ChoiceOrSeparator, Prompter } from '../run/prompter.js';
import { GoBack } from '../core/go-back.js';

export type Answer = string | boolean | string[];

/** One pass of the wizard over the person's prompter: replays `replay`, then asks live, recording every answer. */
export class Navigator implements Prompter {
  /** Every answer of this pass so far, replayed or live, in order. */
  readonly given: Answer[] = [];
  private readonly queue: Answer[];
  private redo: Answer | undefined;

  constructor(private readonly base: Prompter, replay: Answer[], redo?: Answer) {
    this.queue = [...replay];
    this.redo = redo;
  }

  /**
   * After Back at the question following `given`: the replay for the next pass and the answer
   * to show again. Back at the first question stays there.
   */
  static backFrom(given: Answer[]): { replay: Answer[]; redo?: Answer } {
    return given.length ? { replay: given.slice(0, -1), redo: given.at(-1) } : { replay: [] };
  }

  private replayed<T extends Answer>(): T | undefined {
    if (!this.queue.length) return undefined;
    const a = this.queue.shift()!;
    this.given.push(a);
    return a as T;
  }

  /** The first live question after going back shows the earlier answer; later ones their own defaults. */
  private earlier(): Answer | undefined {
    const a = this.redo;
    this.redo = undefined;
    return a;
  }

  /** Back is offered from the second question on: before the first there is nothing. */
  private get back(): BackOption {
    return { back: this.given.length > 0 };
  }

  private record<T extends Answer>(a: T): T {
    this.given.push(a);
    return a;
  }

  password(message: string): Promise<string> {
    return this.base.password(message);
  }

  async input(message: string, opts: Parameters<Prompter['input']>[1] = {}): Promise<string> {
    const r = this.replayed<string>();
    if (r !== undefined) return r;
    const was = this.earlier();
    return this.record(await this.base.input(message, { ...opts, ...(typeof was === 'string' ? { default: was } : {}), ...this.back }));
  }

  async editor(message: string, opts: Parameters<Prompter['editor']>[1] = {}): Promise<string> {
    const r = this.replayed<string>();
    if (r !== undefined) return r;
    const was = this.earlier();
    return this.record(await this.base.editor(message, { ...opts, ...(typeof was === 'string' ? { default: was } : {}), ...this.back }));
  }

  async confirm(message: string, defaultValue?: boolean): Promise<boolean> {
    const r = this.replayed<boolean>();
    if (r !== undefined) return r;
    const was = this.earlier();
    return this.record(await this.base.confirm(message, typeof was === 'boolean' ? was : defaultValue, this.back));
  }

  async select<T extends string>(message: string, choices: Array<{ name: string; value: T }>, opts: { default?: T } = {}): Promise<T> {
    const r = this.replayed<T>();
    if (r !== undefined) return r;
    const was = this.earlier();
    const def = typeof was === 'string' && choices.some((c) => c.value === was) ? (was as T) : opts.default;
    return this.record(await this.base.select(message, choices, { ...opts, default: def, ...this.back }));
  }

  async checkbox<T extends string>(message: string, choices: Array<ChoiceOrSeparator<T>>, opts: { validate?: (values: T[]) => true | string } = {}): Promise<T[]> {
    const r = this.replayed<T[]>();
    if (r !== undefined) return r;
    const was = this.earlier();
    const list = Array.isArray(was) ? choices.map((c) => ('separator' in c || c.disabled ? c : { ...c, checked: was.includes(c.value) })) : choices;
    return this.record(await this.base.checkbox(message, list, { ...opts, ...this.back }));
  }

  async search<T extends string>(message: string, source: (term: string) => Array<Choice<T>>): Promise<T> {
    const r = this.replayed<T>();
    if (r !== undefined) return r;
    this.earlier();
    return this.record(await this.base.search(message, source));
  }
}

/** The person's prompter with Back offered at every question (editing one answer: Back leaves the edit). */
export function withBack(base: Prompter): Prompter {
  return {
    password: (m) => base.password(m),
    input: (m, o = {}) => base.input(m, { ...o, back: true }),
    editor: (m, o = {}) => base.editor(m, { ...o, back: true }),
    confirm: (m, d) => base.confirm(m, d, { back: true }),
    select: (m, c, o = {}) => base.select(m, c, { ...o, back: true }),
    checkbox: (m, c, o = {}) => base.checkbox(m, c, { ...o, back: true }),
    search: (m, s) => base.search(m, s),
  };
}

export { GoBack };
