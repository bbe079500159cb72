// Checks data read from storage or an imported file, and brings it to the current version.
// Errors are values: an import explains what is wrong instead of throwing.
import { MIGRATIONS } from './migrations.ts';
import { CURRENT_VERSION, type Progress, type ProgressV1 } from './schema.ts';

export type ParseResult = { ok: true; progress: Progress; migratedFrom?: number } | { ok: false; error: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

function checkV1(data: Record<string, unknown>): string | undefined {
  if (!Array.isArray(data.chaptersRead) || data.chaptersRead.some((id) => typeof id !== 'string')) return 'chaptersRead must be a list of chapter ids';
  if (!isRecord(data.labs)) return 'labs must be an object';
  for (const [slug, lab] of Object.entries(data.labs)) {
    if (!isRecord(lab) || !isOptionalString(lab.code) || !(lab.passed === undefined || typeof lab.passed === 'boolean')) return `labs.${slug} is malformed`;
  }
  return undefined;
}

function checkVerdict(verdict: unknown): boolean {
  if (verdict === undefined) return true;
  if (!isRecord(verdict) || typeof verdict.passed !== 'boolean' || typeof verdict.at !== 'string' || !isCount(verdict.expectedTotal)) return false;
  const summary = verdict.summary;
  return isRecord(summary) && isCount(summary.passed) && isCount(summary.failed) && isCount(summary.total);
}

function checkV2(data: Record<string, unknown>): string | undefined {
  if (!isRecord(data.chapters)) return 'chapters must be an object';
  for (const [id, chapter] of Object.entries(data.chapters)) {
    if (!isRecord(chapter) || !isOptionalString(chapter.visitedAt) || !isOptionalString(chapter.readAt)) return `chapters.${id} is malformed`;
    if (chapter.checks !== undefined) {
      if (!isRecord(chapter.checks)) return `chapters.${id}.checks is malformed`;
      for (const [q, answer] of Object.entries(chapter.checks)) {
        if (!isRecord(answer) || typeof answer.correct !== 'boolean' || typeof answer.at !== 'string') return `chapters.${id}.checks.${q} is malformed`;
      }
    }
  }
  if (!isRecord(data.labs)) return 'labs must be an object';
  for (const [slug, lab] of Object.entries(data.labs)) {
    if (!isRecord(lab) || !isOptionalString(lab.code) || !isOptionalString(lab.codeSavedAt) || !isOptionalString(lab.passedAt)) return `labs.${slug} is malformed`;
    if (!checkVerdict(lab.lastVerdict)) return `labs.${slug}.lastVerdict is malformed`;
  }
  return undefined;
}

const CHECKS: Record<number, (data: Record<string, unknown>) => string | undefined> = { 1: checkV1, 2: checkV2 };

/** Validates any known version and migrates it to the current one. */
export function parseProgress(value: unknown, nowIso: string): ParseResult {
  if (!isRecord(value)) return { ok: false, error: 'This is not a progress file (expected a JSON object).' };
  const version = value.version;
  if (typeof version !== 'number' || !CHECKS[version]) {
    const newer = typeof version === 'number' && version > CURRENT_VERSION;
    return { ok: false, error: newer ? `This progress file is from a newer version of the site (v${version}).` : 'This is not a progress file (unknown version).' };
  }
  const problem = CHECKS[version]!(value);
  if (problem) return { ok: false, error: `The progress file is damaged: ${problem}.` };
  let data: { version: number } = value as unknown as ProgressV1;
  while (data.version < CURRENT_VERSION) data = MIGRATIONS[data.version]!(data as never, nowIso);
  const { chapters, labs } = data as Progress; // drop fields outside the schema (e.g. exportedAt)
  const progress: Progress = { version: 2, chapters, labs };
  return version === CURRENT_VERSION ? { ok: true, progress } : { ok: true, progress, migratedFrom: version };
}

/** Parses the text of an exported progress file. */
export function parseProgressFile(text: string, nowIso: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'This file is not valid JSON.' };
  }
  return parseProgress(value, nowIso);
}
