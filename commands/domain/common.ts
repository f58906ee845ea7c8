import { UsageError } from '../../src/core/errors.js';

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62}$/i;

export function checkDomain(input: string): string {
  const d = input.trim().replace(/\.$/, '').toLowerCase();
  if (/^[a-z]+:\/\//i.test(d) || d.includes('@') || !DOMAIN.test(d)) {
    throw new UsageError(`"${input}" is not a domain name.`, 'Give the bare domain you send from, for example: mail.example.com');
  }
  return d;
}
