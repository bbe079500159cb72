// The progress store used by pages: per-lab code and verdicts, chapter reading progress, export,
// import (validated; merged or replaced) and reset. Each change is written through immediately and
// listeners hear about failed saves, so the page can tell the learner.
import type { LabResults } from '../grading/results.ts';
import { mergeProgress } from './merge.ts';
import { browserStorage, loadProgress, saveProgress, type KeyValueStorage, type SaveResult } from './persist.ts';
import { emptyProgress, type LabProgress, type Progress } from './schema.ts';
import { parseProgressFile } from './validate.ts';

export type ImportMode = 'merge' | 'replace';
export type ImportResult = { ok: true; migratedFrom?: number } | { ok: false; error: string };

export class ProgressStore {
  private progress: Progress;
  /** Set when the stored progress could not be read at load time. */
  readonly loadProblem: string | undefined;
  private readonly saveListeners = new Set<(result: SaveResult) => void>();

  constructor(
    private readonly storage: KeyValueStorage | undefined = browserStorage(),
    private readonly now: () => Date = () => new Date(),
  ) {
    const loaded = loadProgress(storage, this.now().toISOString());
    this.progress = loaded.progress;
    this.loadProblem = loaded.problem;
  }

  get data(): Readonly<Progress> {
    return this.progress;
  }

  lab(slug: string): Readonly<LabProgress> {
    return this.progress.labs[slug] ?? {};
  }

  /** Hears the outcome of every save (show errors; clear them on the next success). */
  onSave(listener: (result: SaveResult) => void): () => void {
    this.saveListeners.add(listener);
    return () => this.saveListeners.delete(listener);
  }

  private commit(next: Progress): SaveResult {
    this.progress = next;
    const result = saveProgress(this.storage, next);
    for (const listener of this.saveListeners) listener(result);
    return result;
  }

  private updateLab(slug: string, change: (lab: LabProgress) => LabProgress): SaveResult {
    return this.commit({ ...this.progress, labs: { ...this.progress.labs, [slug]: change(this.lab(slug)) } });
  }

  saveLabCode(slug: string, code: string): SaveResult {
    return this.updateLab(slug, (lab) => ({ ...lab, code, codeSavedAt: this.now().toISOString() }));
  }

  /** Forgets the learner's code for a lab (reset to starter); the verdicts stay. */
  clearLabCode(slug: string): SaveResult {
    return this.updateLab(slug, ({ code: _code, codeSavedAt: _at, ...rest }) => rest);
  }

  /** Records a grading run of the hidden suite. */
  recordVerdict(slug: string, results: Pick<LabResults, 'passed' | 'summary' | 'expectedTotal'>): SaveResult {
    const at = this.now().toISOString();
    return this.updateLab(slug, (lab) => ({
      ...lab,
      lastVerdict: { passed: results.passed, summary: { ...results.summary }, expectedTotal: results.expectedTotal, at },
      ...(results.passed && !lab.passedAt ? { passedAt: at } : {}),
    }));
  }

  markChapterVisited(id: string): SaveResult {
    const chapter = this.progress.chapters[id] ?? {};
    if (chapter.visitedAt) return { ok: true };
    return this.commit({ ...this.progress, chapters: { ...this.progress.chapters, [id]: { ...chapter, visitedAt: this.now().toISOString() } } });
  }

  markChapterRead(id: string): SaveResult {
    const chapter = this.progress.chapters[id] ?? {};
    if (chapter.readAt) return { ok: true };
    const at = this.now().toISOString();
    return this.commit({ ...this.progress, chapters: { ...this.progress.chapters, [id]: { visitedAt: chapter.visitedAt ?? at, readAt: at } } });
  }

  /** Records a self-check answer; only the first answer to a question counts (a first try). */
  recordCheck(chapterId: string, questionId: string, correct: boolean): SaveResult {
    const chapter = this.progress.chapters[chapterId] ?? {};
    if (chapter.checks?.[questionId]) return { ok: true };
    const at = this.now().toISOString();
    const checks = { ...chapter.checks, [questionId]: { correct, at } };
    return this.commit({ ...this.progress, chapters: { ...this.progress.chapters, [chapterId]: { ...chapter, visitedAt: chapter.visitedAt ?? at, checks } } });
  }

  /** The text of an export file. */
  exportJson(): string {
    return `${JSON.stringify({ ...this.progress, exportedAt: this.now().toISOString() }, null, 2)}\n`;
  }

  importJson(text: string, mode: ImportMode): ImportResult {
    const parsed = parseProgressFile(text, this.now().toISOString());
    if (!parsed.ok) return parsed;
    const next = mode === 'replace' ? parsed.progress : mergeProgress(this.progress, parsed.progress);
    const saved = this.commit(next);
    if (!saved.ok) return saved;
    return parsed.migratedFrom === undefined ? { ok: true } : { ok: true, migratedFrom: parsed.migratedFrom };
  }

  reset(): SaveResult {
    return this.commit(emptyProgress());
  }
}
