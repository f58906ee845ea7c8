// A verb's options and positional arguments are typed from its commander declaration
// (commands/<noun>/index.ts) by @commander-js/extra-typings, so each flag is written once: a verb
// that reads an option its declaration does not have, or takes an argument it does not declare,
// fails `npm run typecheck`. Types only: a verb imports them (and its declaration) with
// `import type`, which is erased, so each verb still loads only when it runs.
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../run/context.js';

/** A function that declares one command (on the parent it is given) and returns it, without its action. */
export type Declaration = (...args: any[]) => Command<any[], any, any>;

/** The options object a declared command's action receives. */
export type OptsOf<D extends Declaration> = ReturnType<ReturnType<D>['opts']>;

/** Its positional arguments, in order (`<a>` string, `[b]` string | undefined, `<c...>` string[]). */
export type ArgsOf<D extends Declaration> = ReturnType<D>['processedArgs'];

/** The `run` a verb module exports for that declaration. */
export type Verb<D extends Declaration> = (ctx: Context, opts: OptsOf<D>, ...args: ArgsOf<D>) => Promise<void>;

/** What a lazily loaded verb module provides. */
export interface VerbModule<A extends unknown[], O> {
  run: (ctx: Context, opts: O, ...args: A) => Promise<void>;
}

/**
 * Turns a loader of a verb module into a commander action. Generic so that
 * `declareX(noun).action(action(() => import('./x.js')))` checks the module's `run` against
 * what the declaration gives it (the wrong module, or an argument the command does not have,
 * fails typecheck).
 */
export type ActionFactory = <A extends unknown[], O>(load: () => Promise<VerbModule<A, O>>) => (...args: [...A, O, CommandUnknownOpts]) => Promise<void>;
