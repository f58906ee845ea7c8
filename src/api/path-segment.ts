// A value a user or file gives (a campaign code, a group or import serial, a template id, a
// domain) put into a request's path. encodeURIComponent leaves "." and ".." as they are, and URL
// resolution then collapses them: GET …/v1/campaign/normal/.. went to GET …/v1/campaign/, another
// endpoint than the one named. Such a value is refused before anything is sent (exit 2); an empty
// one too, which would leave the path ending in "/" (the list endpoint, not the item).
import { UsageError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';

/** `value` as one path segment, or a UsageError when it is "", "." or "..". */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new UsageError(`${value ? `"${forTerminal(value, 10)}"` : 'An empty value'} cannot be a code, serial or name in a request: it would send the request to another address than the one meant; give the real value.`);
  }
  return encodeURIComponent(value);
}
