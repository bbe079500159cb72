import { describe, expect, it } from 'vitest';
import { FakeStorage } from './fake-storage.ts';
import type { SaveResult } from './persist.ts';
import { storageKey, type ProgressV1 } from './schema.ts';
import { ProgressStore } from './store.ts';

const T0 = '2026-11-30T10:00:00.000Z';
const clock = (iso = T0) => () => new Date(iso);
const verdict = (passed: boolean) => ({ passed, summary: { passed: passed ? 3 : 1, failed: passed ? 0 : 2, total: 3 }, expectedTotal: 3 });

describe('ProgressStore: saving and reloading', () => {
  it('keeps code, verdicts and chapters across a reload', () => {
    const storage = new FakeStorage();
    const store = new ProgressStore(storage, clock());
    store.saveLabCode('lab-a', 'export const x = 1;');
    store.recordVerdict('lab-a', verdict(true));
    store.markChapterVisited('01-journey');
    store.markChapterRead('02-apiserver');
    const reloaded = new ProgressStore(storage, clock('2026-12-01T00:00:00.000Z'));
    expect(reloaded.lab('lab-a')).toEqual({
      code: 'export const x = 1;',
      codeSavedAt: T0,
      lastVerdict: { ...verdict(true), at: T0 },
      passedAt: T0,
    });
    expect(reloaded.data.chapters).toEqual({ '01-journey': { visitedAt: T0 }, '02-apiserver': { visitedAt: T0, readAt: T0 } });
    expect(reloaded.loadProblem).toBeUndefined();
  });

  it('keeps the first pass time when a later run fails', () => {
    const storage = new FakeStorage();
    const store = new ProgressStore(storage, clock());
    store.recordVerdict('lab-a', verdict(true));
    new ProgressStore(storage, clock('2026-12-02T00:00:00.000Z')).recordVerdict('lab-a', verdict(false));
    const lab = new ProgressStore(storage).lab('lab-a');
    expect(lab.passedAt).toBe(T0);
    expect(lab.lastVerdict?.passed).toBe(false);
  });

  it('reset to starter forgets the code but not the verdict', () => {
    const store = new ProgressStore(new FakeStorage(), clock());
    store.saveLabCode('lab-a', 'x');
    store.recordVerdict('lab-a', verdict(true));
    store.clearLabCode('lab-a');
    expect(store.lab('lab-a').code).toBeUndefined();
    expect(store.lab('lab-a').passedAt).toBe(T0);
  });
});

describe('ProgressStore: failed saves are reported, never dropped silently', () => {
  it.each([
    ['a full store', 'quota' as const, /storage for the site is full/],
    ['storage denied', 'denied' as const, /does not allow the site to store data/],
  ])('%s', (_name, failure, message) => {
    const storage = new FakeStorage();
    const store = new ProgressStore(storage, clock());
    const heard: SaveResult[] = [];
    store.onSave((result) => heard.push(result));
    storage.failure = failure;
    const result = store.saveLabCode('lab-a', 'code');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(message);
    expect(heard).toEqual([result]);
    // the change is still held in memory so a later successful save writes it
    expect(store.lab('lab-a').code).toBe('code');
    storage.failure = 'none';
    expect(store.markChapterRead('01-journey')).toEqual({ ok: true });
    expect(new ProgressStore(storage).lab('lab-a').code).toBe('code');
  });

  it('reports unavailable storage at load time', () => {
    const storage = new FakeStorage();
    storage.failure = 'denied';
    expect(new ProgressStore(storage).loadProblem).toMatch(/does not allow/);
    expect(new ProgressStore(undefined).loadProblem).toMatch(/does not allow/);
  });

  it('does not overwrite unreadable stored data on load', () => {
    const storage = new FakeStorage();
    storage.items.set(storageKey(2), '{not json');
    const store = new ProgressStore(storage);
    expect(store.loadProblem).toMatch(/could not be read/);
    expect(storage.items.get(storageKey(2))).toBe('{not json');
  });
});

describe('ProgressStore: migration from older versions', () => {
  it('migrates a v1 save on load, writes v2 and removes the v1 key after the next save', () => {
    const storage = new FakeStorage();
    const v1: ProgressV1 = { version: 1, chaptersRead: ['01-journey'], labs: { 'lab-a': { code: 'old', passed: true }, 'lab-b': {} } };
    storage.items.set(storageKey(1), JSON.stringify(v1));
    const store = new ProgressStore(storage, clock());
    expect(store.data).toEqual({
      version: 2,
      chapters: { '01-journey': { visitedAt: T0, readAt: T0 } },
      labs: { 'lab-a': { code: 'old', codeSavedAt: T0, passedAt: T0 }, 'lab-b': {} },
    });
    store.markChapterVisited('02-apiserver');
    expect(storage.items.has(storageKey(1))).toBe(false);
    expect(JSON.parse(storage.items.get(storageKey(2))!).version).toBe(2);
  });

  it('prefers the current key when both exist', () => {
    const storage = new FakeStorage();
    storage.items.set(storageKey(1), JSON.stringify({ version: 1, chaptersRead: ['old'], labs: {} }));
    storage.items.set(storageKey(2), JSON.stringify({ version: 2, chapters: { new: { visitedAt: T0 } }, labs: {} }));
    expect(Object.keys(new ProgressStore(storage).data.chapters)).toEqual(['new']);
  });
});

describe('ProgressStore: export and import', () => {
  const imported = (labs: object, chapters: object = {}) => JSON.stringify({ version: 2, chapters, labs, exportedAt: T0 });

  it('round-trips an export into an empty store', () => {
    const source = new ProgressStore(new FakeStorage(), clock());
    source.saveLabCode('lab-a', 'code');
    source.recordVerdict('lab-a', verdict(true));
    source.markChapterRead('01-journey');
    const target = new ProgressStore(new FakeStorage(), clock());
    expect(target.importJson(source.exportJson(), 'replace')).toEqual({ ok: true });
    expect(target.data).toEqual(source.data);
    expect('exportedAt' in target.data).toBe(false);
  });

  it('merges: newest code, newest verdict, earliest pass and read times', () => {
    const store = new ProgressStore(new FakeStorage(), clock('2026-11-30T12:00:00.000Z'));
    store.saveLabCode('lab-a', 'mine, newer');
    store.markChapterRead('01-journey');
    const text = imported(
      {
        'lab-a': { code: 'theirs, older', codeSavedAt: T0, passedAt: T0, lastVerdict: { ...verdict(true), at: T0 } },
        'lab-b': { code: 'only theirs', codeSavedAt: T0 },
      },
      { '01-journey': { visitedAt: T0, readAt: T0 } },
    );
    expect(store.importJson(text, 'merge')).toEqual({ ok: true });
    expect(store.lab('lab-a')).toEqual({
      code: 'mine, newer',
      codeSavedAt: '2026-11-30T12:00:00.000Z',
      passedAt: T0,
      lastVerdict: { ...verdict(true), at: T0 },
    });
    expect(store.lab('lab-b').code).toBe('only theirs');
    expect(store.data.chapters['01-journey']).toEqual({ visitedAt: T0, readAt: T0 });
  });

  it('replace drops what the file does not have', () => {
    const store = new ProgressStore(new FakeStorage(), clock());
    store.saveLabCode('lab-a', 'mine');
    store.importJson(imported({ 'lab-b': {} }), 'replace');
    expect(Object.keys(store.data.labs)).toEqual(['lab-b']);
  });

  it('imports and migrates a v1 file', () => {
    const store = new ProgressStore(new FakeStorage(), clock());
    const result = store.importJson(JSON.stringify({ version: 1, chaptersRead: ['01-journey'], labs: {} }), 'merge');
    expect(result).toEqual({ ok: true, migratedFrom: 1 });
    expect(store.data.chapters['01-journey']?.readAt).toBe(T0);
  });

  it.each([
    ['not JSON', 'hello', /not valid JSON/],
    ['a JSON array', '[]', /not a progress file/],
    ['no version', '{"labs":{}}', /not a progress file/],
    ['a newer version', '{"version":9,"labs":{}}', /newer version/],
    ['labs not an object', '{"version":2,"chapters":{},"labs":[]}', /labs must be an object/],
    ['code not a string', '{"version":2,"chapters":{},"labs":{"a":{"code":5}}}', /labs\.a is malformed/],
    ['bad verdict', '{"version":2,"chapters":{},"labs":{"a":{"lastVerdict":{"passed":"yes"}}}}', /lastVerdict is malformed/],
    ['bad chapter', '{"version":2,"chapters":{"c":{"readAt":1}},"labs":{}}', /chapters\.c is malformed/],
    ['bad v1', '{"version":1,"chaptersRead":"01","labs":{}}', /chaptersRead/],
  ])('rejects %s and leaves progress unchanged', (_name, text, message) => {
    const storage = new FakeStorage();
    const store = new ProgressStore(storage, clock());
    store.saveLabCode('lab-a', 'keep me');
    const before = storage.items.get(storageKey(2));
    const result = store.importJson(text, 'replace');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(message);
    expect(store.lab('lab-a').code).toBe('keep me');
    expect(storage.items.get(storageKey(2))).toBe(before);
  });

  it('reset empties everything', () => {
    const store = new ProgressStore(new FakeStorage(), clock());
    store.saveLabCode('lab-a', 'x');
    store.markChapterRead('01-journey');
    store.reset();
    expect(store.data).toEqual({ version: 2, chapters: {}, labs: {} });
  });
});
