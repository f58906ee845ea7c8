// The versions of a campaign as recipients get them. A regular campaign has one; an A/B test
// has two that differ in the tested dimension and share the single-version fields for the rest
// (spec 000 endpoint 9: "For the tested dimension the A and B fields are used; the other
// dimensions use the single-version fields").
import type { CampaignContent } from '../../api/campaign-types.js';

export type VersionLabel = 'A' | 'B';

export interface Version {
  /** Undefined for a regular campaign. */
  label?: VersionLabel;
  subject?: string;
  preheader?: string;
  fromName?: string;
  fromAddress?: string;
  html?: string;
}

export function versionsOf(c: CampaignContent): Version[] {
  const single: Version = { subject: c.subject, preheader: c.preheader, fromName: c.fromName, fromAddress: c.fromAddress, html: c.htmlContent };
  if (c.testingOn === undefined) return [single];
  const v = (label: VersionLabel): Version => {
    const x = label === 'A';
    if (c.testingOn === 1) return { ...single, label, subject: x ? c.subjectA : c.subjectB, preheader: x ? c.preheaderA : c.preheaderB };
    if (c.testingOn === 2) return { ...single, label, fromName: x ? c.fromNameA : c.fromNameB, fromAddress: x ? c.fromAddressA : c.fromAddressB };
    return { ...single, label, html: x ? c.htmlContentA : c.htmlContentB };
  };
  return [v('A'), v('B')];
}

export type PartKind = 'subject' | 'preheader' | 'html';

export interface Part {
  kind: PartKind;
  text: string | undefined;
  label?: VersionLabel;
}

/**
 * The texts to check, each once: a part both versions share is checked (and reported) once
 * without a version; a part that differs is checked per version.
 */
export function partsOf(versions: Version[]): Part[] {
  const out: Part[] = [];
  for (const kind of ['subject', 'preheader', 'html'] as const) {
    const texts = versions.map((v) => v[kind]);
    if (versions.length === 1 || texts.every((t) => t === texts[0])) out.push({ kind, text: texts[0] });
    else versions.forEach((v) => out.push({ kind, text: v[kind], label: v.label }));
  }
  return out;
}

export function whereOf(kind: PartKind, label?: VersionLabel): string {
  return label ? `${kind} (version ${label})` : kind;
}
