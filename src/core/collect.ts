/** Commander option parser for repeatable flags: `--to a --to b` → ['a', 'b']. */
export function collect(value: string, prev: string[] = []): string[] {
  return [...prev, value];
}
