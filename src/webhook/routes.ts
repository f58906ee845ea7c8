// Where `webhook listen` forwards each stored event: `--route EVENT=URL` per event, `--forward URL`
// for every event no route names. EVENT is an email event (delivery, open, click, bounce,
// complaint) or an SMS one written with an `sms-` prefix (sms-delivery, sms-bounce) — the names
// `webhook trigger` takes — because both channels call their events "delivery" and "bounce"
// (spec 001 section 2); the channel is told by the payload (mail.id or sms_data.id).
import { UsageError } from '../core/errors.js';
import { checkUrl } from '../core/url.js';
import { forTerminal } from '../core/sanitize.js';
import { EMAIL_WEBHOOK_TYPES, SMS_WEBHOOK_TYPES } from '../api/notify-types.js';

export const ROUTE_EVENTS = [...Object.keys(EMAIL_WEBHOOK_TYPES), ...Object.keys(SMS_WEBHOOK_TYPES).map((e) => `sms-${e}`)];

export interface Routes {
  /** Route name (`bounce`, `sms-bounce`) → URL. */
  byEvent: Record<string, string>;
  /** --forward: every event no route names. */
  fallback?: string;
}

const EXAMPLE = 'http://127.0.0.1:3000/hooks/bounce';

/** The route name of a stored event: `bounce` for email, `sms-bounce` for SMS. */
export function routeName(event: string, channel: 'email' | 'sms' | undefined): string {
  return channel === 'sms' ? `sms-${event}` : event;
}

/** The URL an event goes to, or undefined: it is only stored. */
export function routeFor(routes: Routes, event: string, channel: 'email' | 'sms' | undefined): string | undefined {
  const name = routeName(event, channel);
  return Object.hasOwn(routes.byEvent, name) ? routes.byEvent[name] : routes.fallback;
}

export function hasRoutes(routes: Routes): boolean {
  return routes.fallback !== undefined || Object.keys(routes.byEvent).length > 0;
}

/** Parses the --route values (and --forward); each mistake is one UsageError (exit 2). */
export function parseRoutes(values: string[], forward?: string): Routes {
  const routes: Routes = { byEvent: {} };
  if (forward !== undefined) routes.fallback = checkUrl(forward, { name: '--forward', example: 'http://127.0.0.1:3000/hooks/mail' });
  for (const value of values) {
    const eq = value.indexOf('=');
    const shown = forTerminal(value, 200);
    if (eq < 0) throw new UsageError(`--route "${shown}" has no "=": write EVENT=URL, such as bounce=${EXAMPLE}.`, `EVENT is one of ${ROUTE_EVENTS.join(', ')}.`);
    const raw = value.slice(0, eq).trim().toLowerCase();
    const url = value.slice(eq + 1);
    if (raw === '*' || raw === '') {
      throw new UsageError(`--route "${shown}" names no event; every event no --route names goes to --forward URL.`, `Use --forward ${url.trim() || EXAMPLE} for the default route.`);
    }
    const name = raw.replace(/^sms[_:]/, 'sms-');
    if (!ROUTE_EVENTS.includes(name)) {
      const emailOnly = name.startsWith('sms-') && ROUTE_EVENTS.includes(name.slice(4));
      throw new UsageError(
        emailOnly
          ? `--route "${shown}": SMS webhooks exist only for delivery and bounce, so there is no ${forTerminal(name, 40)} event.`
          : `--route "${shown}" names no webhook event.`,
        `EVENT is one of ${ROUTE_EVENTS.join(', ')} (SMS events carry the sms- prefix).`,
      );
    }
    if (Object.hasOwn(routes.byEvent, name)) throw new UsageError(`--route ${name} is given twice; each event goes to one URL.`, 'Keep one --route per event.');
    routes.byEvent[name] = checkUrl(url, { name: `--route ${name}`, example: EXAMPLE });
  }
  return routes;
}

/** "bounce → URL, sms-bounce → URL, any other event → URL", for the start line. */
export function describeRoutes(routes: Routes): string {
  const parts = Object.entries(routes.byEvent).map(([name, url]) => `${name} → ${forTerminal(url, 200)}`);
  if (routes.fallback !== undefined) parts.push(`${parts.length ? 'any other event' : 'every event'} → ${forTerminal(routes.fallback, 200)}`);
  return parts.join(', ');
}
