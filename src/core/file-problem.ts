// One sentence for "this input file cannot be read", the same everywhere: missing, a folder,
// no permission, or the system's own reason.

/** `what` names the file's role ("recipients file"), `flag` the option that gave it, if any. */
export function fileProblem(e: unknown, file: string, what: string, flag?: string): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const named = `The ${what} ${file}${flag ? ` (${flag})` : ''}`;
  if (code === 'ENOENT') return `${named} does not exist.`;
  if (code === 'EISDIR') return `${named} is a folder; give the path of a file.`;
  if (code === 'EACCES' || code === 'EPERM') return `${named} cannot be read: permission denied.`;
  return `${named} cannot be read: ${(e as Error)?.message ?? String(e)}.`;
}
