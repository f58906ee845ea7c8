import { UsageError } from './errors.js';

/** A whole number flag value, or a UsageError naming the flag. */
export function parseWhole(value: string, flag: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} takes a whole number ${range}; got "${value}".`);
  }
  return n;
}
