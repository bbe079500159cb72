// Merging an imported progress file into the current one: nothing the learner did is lost.
// Chapters: earliest visit and read times. Labs: the most recently saved code, the newest verdict,
// the earliest pass.
import type { ChapterProgress, LabProgress, Progress } from './schema.ts';

function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a <= b ? a : b;
}

function newer<T>(a: T | undefined, aAt: string | undefined, b: T | undefined, bAt: string | undefined): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (bAt ?? '') > (aAt ?? '') ? b : a;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** Self-check answers: the earliest answer to each question wins (it is the "first try"). */
function mergeChecks(a: ChapterProgress['checks'], b: ChapterProgress['checks']): ChapterProgress['checks'] {
  if (!a) return b;
  if (!b) return a;
  const out = { ...a };
  for (const [q, answer] of Object.entries(b)) if (!out[q] || answer.at < out[q].at) out[q] = answer;
  return out;
}

function mergeChapter(a: ChapterProgress = {}, b: ChapterProgress = {}): ChapterProgress {
  return withoutUndefined({ visitedAt: earliest(a.visitedAt, b.visitedAt), readAt: earliest(a.readAt, b.readAt), checks: mergeChecks(a.checks, b.checks) });
}

function mergeLab(a: LabProgress = {}, b: LabProgress = {}): LabProgress {
  const code = newer(a.code, a.codeSavedAt, b.code, b.codeSavedAt);
  return withoutUndefined({
    code,
    codeSavedAt: code === a.code ? a.codeSavedAt : b.codeSavedAt,
    lastVerdict: newer(a.lastVerdict, a.lastVerdict?.at, b.lastVerdict, b.lastVerdict?.at),
    passedAt: earliest(a.passedAt, b.passedAt),
  });
}

export function mergeProgress(current: Progress, imported: Progress): Progress {
  const chapters: Progress['chapters'] = {};
  for (const id of new Set([...Object.keys(current.chapters), ...Object.keys(imported.chapters)])) {
    chapters[id] = mergeChapter(current.chapters[id], imported.chapters[id]);
  }
  const labs: Progress['labs'] = {};
  for (const slug of new Set([...Object.keys(current.labs), ...Object.keys(imported.labs)])) {
    labs[slug] = mergeLab(current.labs[slug], imported.labs[slug]);
  }
  return { version: 2, chapters, labs };
}
