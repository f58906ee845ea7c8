// The commands `mailctl mcp` serves as tools, by command path. Everything else about a tool comes
// from the command's declaration (src/cli/tool-schema.ts): its parameters, their descriptions
// and choices; whether it is a write (it declares --dry-run: planned, then confirmed) and
// destructive (it declares a --yes it needs without a terminal: src/run/write-flags.ts isDestructive). A new command is one line here.

export interface ToolSpec {
  /** The command's words after `mailctl`. */
  path: readonly string[];
  /** The tool's name when not the words joined by `_`. */
  name?: string;
  /** Flags of the command the tool does not take, each with why (said in the tool's description). */
  omit?: Readonly<Record<string, string>>;
  /** Served as a read although the command declares --dry-run (its writing flags omitted). */
  read?: true;
  /**
   * Its dry run builds every request body as the real run does (the batch tools): a confirmed
   * run may then send only the planned bodies, so no recipient the plan did not show
   * (src/mcp/plan-guard.ts). Other dry runs hold placeholders where lookups give values.
   */
  exactBodies?: true;
}

/** Writes local files; a read tool shows its answer in the document instead. */
const LOCAL_FILE = 'a read tool writes no file on the server\'s machine; the document holds the answer';

export const TOOL_SPECS: readonly ToolSpec[] = [
  // Reads.
  { path: ['groups', 'list'] },
  { path: ['import', 'status'], omit: { '--download-failures': LOCAL_FILE, '--force': LOCAL_FILE } },
  { path: ['campaign', 'status'] },
  { path: ['campaign', 'list'] },
  { path: ['report', 'list'] },
  { path: ['report', 'metrics'] },
  { path: ['report', 'links'], read: true, omit: { '--out-dir': LOCAL_FILE, '--force': LOCAL_FILE } },
  { path: ['template', 'list'] },
  { path: ['template', 'show'], omit: { '--out': LOCAL_FILE, '--force': LOCAL_FILE, '--web': 'it opens a browser on the server\'s machine; the document holds the html' } },
  { path: ['balance'] },
  { path: ['events'] },
  { path: ['doctor'] },
  // Writes.
  { path: ['import'], omit: { '--create-group': 'a plan cannot show a group created only when none has the name; create it with groups_create first' } },
  { path: ['groups', 'create'] },
  { path: ['campaign', 'create'], omit: { '--wizard': 'it asks on a terminal, and the server has none' } },
  { path: ['campaign', 'pause'] },
  { path: ['campaign', 'delete'] },
  { path: ['report', 'export'] },
  { path: ['send', 'email'], name: 'send', exactBodies: true, omit: { '--forecast': 'the plan\'s document carries the forecast; the balance tool reads the balance' } },
  { path: ['send', 'sms'], exactBodies: true, omit: { '--forecast': 'the plan\'s document carries the forecast; the balance tool reads the balance' } },
  { path: ['automation', 'trigger'], exactBodies: true },
  { path: ['automation', 'terminate'], exactBodies: true },
  { path: ['webhook', 'set'] },
  { path: ['webhook', 'delete'] },
];

/** Flags no tool takes: the server sets them on every call. */
export const SERVER_FLAGS: Readonly<Record<string, string>> = {
  '--dry-run': 'a write called without "confirm" runs as a dry run',
  '--yes': 'a confirmed plan is the confirmation',
  '--csv': 'the result is the --json document',
};
