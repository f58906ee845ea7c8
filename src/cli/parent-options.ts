// Commander gives a parent command's own options precedence, so in `import status SN --wait` or
// `events tail --sms` the flags that both levels declare land on the parent. This hands the
// shared ones to the subcommand and refuses the parent-only ones there, with the usage line.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

export async function inheritParentOptions(cmd: CommandUnknownOpts, shared: string[], usage: string): Promise<void> {
  const parent = cmd.parent!;
  for (const [key, value] of Object.entries(parent.opts())) {
    if (value === undefined) continue;
    if (shared.includes(key)) {
      if (cmd.getOptionValue(key) === undefined) cmd.setOptionValue(key, value);
      continue;
    }
    const flag = parent.options.find((o) => o.attributeName() === key)?.long ?? key;
    // Raised lazily (dynamic import) so registering a noun keeps start-up free of error classes.
    const { UsageError } = await import('../core/errors.js');
    throw new UsageError(`${flag} does not apply to \`${parent.name()} ${cmd.name()}\`.`, `Usage: ${usage}`);
  }
}
