// What `campaign preflight` reports: one finding per thing to fix, each with a stable rule id
// that scripts may match on (`--json`), a severity that decides the exit code, and where in the
// campaign it was found. The rule ids are part of the interface: add new ones, never rename.

export type Severity = 'error' | 'warning' | 'info';

export const RULES = {
  /** A field rule of the service (compose.ts): create would refuse this input. */
  'campaign-invalid': 'error',
  /** A compose.ts warning (same A/B versions, ambiguous local time, odd ${…}). */
  'campaign-warning': 'warning',
  'field-unknown': 'warning',
  'field-check-skipped': 'info',
  'notify-syntax': 'warning',
  'html-size': 'warning',
  'img-alt': 'warning',
  'preheader-missing': 'warning',
  'utm-missing': 'warning',
  'link-http': 'warning',
  'link-relative': 'warning',
  'link-variable': 'info',
  'link-broken': 'warning',
  'link-unreachable': 'warning',
  'link-redirect-host': 'warning',
  'link-redirect-http': 'warning',
  'link-redirect-loop': 'warning',
  'link-forbidden': 'warning',
} as const satisfies Record<string, Severity>;

export type Rule = keyof typeof RULES;

export interface Finding {
  rule: Rule;
  severity: Severity;
  message: string;
  /** The part of the campaign: "subject", "html (version A)", "html: https://…". */
  where: string;
}

export function finding(rule: Rule, where: string, message: string): Finding {
  return { rule, severity: RULES[rule], message, where };
}

export function counts(findings: Finding[]): Record<Severity, number> {
  const c: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

/** Spec-free summary for a person: "2 warnings, 1 note". */
export function summaryLine(findings: Finding[]): string {
  const c = counts(findings);
  const parts = [
    c.error && `${c.error} error${c.error === 1 ? '' : 's'}`,
    c.warning && `${c.warning} warning${c.warning === 1 ? '' : 's'}`,
    c.info && `${c.info} note${c.info === 1 ? '' : 's'}`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing to fix';
}
