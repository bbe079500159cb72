// The shape of the progress saved in the browser, by schema version. Each version has its own
// localStorage key ("icp.progress.v<N>"), so an older build never misreads a newer save; older
// versions are migrated forward on load (migrations.ts) and by import.

/** Version 1: the first shape (chapters read as a list, per lab the code and a pass flag). */
export interface ProgressV1 {
  version: 1;
  chaptersRead: string[];
  labs: Record<string, { code?: string; passed?: boolean }>;
}

/** What the learner last got from grading a lab. */
export interface LabVerdict {
  passed: boolean;
  summary: { passed: number; failed: number; total: number };
  expectedTotal: number;
  /** ISO 8601 time of the grading run. */
  at: string;
}

export interface LabProgress {
  /** The learner's code as last typed (auto-saved). */
  code?: string;
  codeSavedAt?: string;
  lastVerdict?: LabVerdict;
  /** First time the hidden suite passed. */
  passedAt?: string;
}

export interface ChapterProgress {
  visitedAt?: string;
  /** Set when the reader reached the end of the chapter. */
  readAt?: string;
  /**
   * The self-check questions answered, by question id ("q1"...): whether the first answer checked
   * was right, and when. An optional field added within version 2 (older saves simply lack it).
   */
  checks?: Record<string, SelfCheckAnswer>;
}

export interface SelfCheckAnswer {
  correct: boolean;
  at: string;
}

/** Version 2 (current). */
export interface ProgressV2 {
  version: 2;
  chapters: Record<string, ChapterProgress>;
  labs: Record<string, LabProgress>;
}

export type Progress = ProgressV2;
export const CURRENT_VERSION = 2;
export const STORAGE_KEY_PREFIX = 'icp.progress.v';

export function storageKey(version: number): string {
  return `${STORAGE_KEY_PREFIX}${version}`;
}

export function emptyProgress(): Progress {
  return { version: 2, chapters: {}, labs: {} };
}
