// Migrations from older progress versions to the current one: one pure function per step,
// applied in order. A new schema version adds a step here and a case to migrations.test.ts.
import type { ProgressV1, ProgressV2 } from './schema.ts';

/** v1 -> v2: chapters become records (read time unknown, so the migration time is used). */
export function migrateV1ToV2(old: ProgressV1, nowIso: string): ProgressV2 {
  const chapters: ProgressV2['chapters'] = {};
  for (const id of old.chaptersRead) chapters[id] = { visitedAt: nowIso, readAt: nowIso };
  const labs: ProgressV2['labs'] = {};
  for (const [slug, lab] of Object.entries(old.labs)) {
    labs[slug] = {
      ...(lab.code === undefined ? {} : { code: lab.code, codeSavedAt: nowIso }),
      ...(lab.passed ? { passedAt: nowIso } : {}),
    };
  }
  return { version: 2, chapters, labs };
}

/** Steps keyed by the version they migrate from. */
export const MIGRATIONS: Record<number, (data: never, nowIso: string) => { version: number }> = {
  1: migrateV1ToV2,
};
