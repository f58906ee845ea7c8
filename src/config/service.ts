// The two services by name, as every layer refers to them, and how a key of theirs is shown.
// Kept apart from settings.ts (which resolves a run's settings and reaches into src/cli for the
// words of its errors) so the API layer can name a service and mask a key without depending on
// anything above it.
import { keyFault } from './key-shape.js';

export type Service = 'campaign' | 'notify';
export const SERVICE_LABEL: Record<Service, string> = { campaign: 'campaign service', notify: 'notification service' };

/**
 * "abcd…wz" style: enough to tell keys apart, never enough to use one. A key that is not well-formed
 * (refused where it enters, so none should get here) is all stars: its ends could be the bad part.
 */
export function maskKey(key: string | undefined): string {
  if (!key) return '';
  if (key.length <= 8 || keyFault(key)) return '****';
  return `${key.slice(0, 4)}…${key.slice(-2)}`;
}
