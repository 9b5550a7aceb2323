// What the retention rule keeps and for how long (tenant settings retention.*, contract/api/settings.ts): the day
// counts with their defaults, and the instant before which a row is due. A day is 24 hours counted back from the
// run's clock: a row exactly N days old stays, a moment older goes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type } from 'arktype';
import { type RetentionSettings, retentionSettings } from '../../contract/api/settings';

export type RetentionKind = 'evidence' | 'unfinished_onboarding' | 'audit' | 'staff_actions';
export type RetentionDays = Required<RetentionSettings>;

/**
 * The defaults, where a tenant's settings.json says nothing (README "Retention"). Evidence 90 days: a quarter is
 * long enough for staff to review an enrolment and answer a person's complaint about it, and the decision itself
 * (outcome, scores, the face descriptor) stays. Unfinished onboardings 30 days: a person who has not finished in a
 * month has left, and their pictures never served a decision. Access audit 365 days: a year of door decisions
 * covers a yearly inspection and the disputes about an entry, which are raised within months.
 */
export const RETENTION_DEFAULTS: RetentionDays = {
  evidenceDays: 90,
  unfinishedOnboardingDays: 30,
  auditDays: 365,
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tenant's day counts, or undefined when its `retention` is malformed (then nothing of it is purged). */
export function retentionDaysOf(rawSettings: unknown): RetentionDays | undefined {
  const raw = (rawSettings && typeof rawSettings === 'object' ? rawSettings : {}) as Record<string, unknown>;
  const checked = retentionSettings(raw.retention ?? {});
  if (checked instanceof type.errors) return undefined;
  return { ...RETENTION_DEFAULTS, ...checked };
}

/** Rows created (or, for onboardings, last touched) before this instant are due. */
export function cutoffOf(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

export function cutoffsOf(now: Date, days: RetentionDays): Record<RetentionKind, Date> {
  return {
    evidence: cutoffOf(now, days.evidenceDays),
    unfinished_onboarding: cutoffOf(now, days.unfinishedOnboardingDays),
    audit: cutoffOf(now, days.auditDays),
    // The record of staff actions is an audit too: kept as long as the door decisions.
    staff_actions: cutoffOf(now, days.auditDays),
  };
}

/** Reads {publicDir}/tenants/{tenant}/settings.json at every run, so that a changed setting needs no restart. */
export async function loadRetentionDays(
  publicDir: string,
  tenant: string,
): Promise<RetentionDays | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(publicDir, 'tenants', tenant, 'settings.json'), 'utf8'));
  } catch {
    return undefined;
  }
  return retentionDaysOf(raw);
}
