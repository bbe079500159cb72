// Reading and writing progress in localStorage. Loading tries the current key first, then older
// versions' keys (migrating them). Saving never fails silently: it returns an error value the
// caller shows to the learner (storage full, disabled, or blocked by privacy settings).
import { CURRENT_VERSION, emptyProgress, storageKey, type Progress } from './schema.ts';
import { parseProgress } from './validate.ts';

/** The part of the Web Storage API the store uses (localStorage, or a fake in tests). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type SaveResult = { ok: true } | { ok: false; error: string };

export interface LoadResult {
  progress: Progress;
  /** Set when stored data could not be read (it is kept under its key, not overwritten). */
  problem?: string;
}

/** localStorage, or undefined where it is unavailable (disabled cookies, sandboxed frames). */
export function browserStorage(): KeyValueStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function loadProgress(storage: KeyValueStorage | undefined, nowIso: string): LoadResult {
  if (!storage) return { progress: emptyProgress(), problem: 'Your browser does not allow this site to save progress.' };
  for (let version = CURRENT_VERSION; version >= 1; version -= 1) {
    let text: string | null;
    try {
      text = storage.getItem(storageKey(version));
    } catch {
      return { progress: emptyProgress(), problem: 'Your browser does not allow this site to read saved progress.' };
    }
    if (text === null) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const parsed = parseProgress(value, nowIso);
    if (!parsed.ok) return { progress: emptyProgress(), problem: `Saved progress could not be read: ${parsed.error}` };
    return { progress: parsed.progress };
  }
  return { progress: emptyProgress() };
}

function describeStorageError(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') {
    return 'Your progress could not be saved: this browser\'s storage for the site is full. Export your progress, then free some space.';
  }
  return 'Your progress could not be saved: this browser does not allow the site to store data.';
}

/** Writes under the current key; older versions' keys are removed once the write succeeded. */
export function saveProgress(storage: KeyValueStorage | undefined, progress: Progress): SaveResult {
  if (!storage) return { ok: false, error: 'Your progress could not be saved: this browser does not allow the site to store data.' };
  try {
    storage.setItem(storageKey(CURRENT_VERSION), JSON.stringify(progress));
  } catch (error) {
    return { ok: false, error: describeStorageError(error) };
  }
  for (let version = 1; version < CURRENT_VERSION; version += 1) {
    try {
      storage.removeItem(storageKey(version));
    } catch {
      // the current save succeeded; a stale older copy is harmless
    }
  }
  return { ok: true };
}
