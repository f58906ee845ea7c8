import { SCRIPTS } from '../../src/cli/completion-scripts.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declarePrint } from './index.js';

export const run: Verb<typeof declarePrint> = async (ctx, _opts, shell) => {
  if (ctx.io.json) ctx.io.printJson({ shell, script: SCRIPTS[shell] });
  else ctx.io.out(SCRIPTS[shell].trimEnd());
};
