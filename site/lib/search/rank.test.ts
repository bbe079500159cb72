import { describe, expect, it } from 'vitest';
import { makeSnippet, scoreDoc, search, tokenize, WEIGHTS } from './rank';
import type { SearchDoc, SearchIndex } from './types';

const doc = (k: SearchDoc['k'], t: string, x: string, u = `/${t}`): SearchDoc => ({ k, t, u, x });

describe('tokenize', () => {
  it.each([
    ['lower-cases and splits on spaces', 'Etcd  Quorum', ['etcd', 'quorum']],
    ['keeps dashes, dots and slashes inside words', 'kube-proxy v1.31 /registry/pods', ['kube-proxy', 'v1.31', '/registry/pods'.slice(1)]],
    ['drops punctuation', '"scheduler?" (filter)', ['scheduler', 'filter']],
    ['empty query', '   ', []],
  ])('%s', (_name, query, expected) => {
    expect(tokenize(query)).toEqual(expected);
  });
});

describe('scoreDoc', () => {
  const words = ['etcd'];
  it('ranks a title match above a heading match above a text match', () => {
    const title = scoreDoc(doc('term', 'etcd', 'store'), words);
    const heading = scoreDoc(doc('section', 'The write to etcd', 'store'), words);
    const text = scoreDoc(doc('chapter', 'Journey', 'etcd etcd etcd etcd etcd etcd etcd'), words);
    expect(title).toBeGreaterThan(heading);
    expect(heading).toBeGreaterThan(text);
  });

  it('caps text points below the weakest heading match (substring)', () => {
    const manyInText = scoreDoc(doc('chapter', 'Journey', 'etcd '.repeat(50)), words);
    expect(manyInText).toBe(WEIGHTS.textFirst + WEIGHTS.textExtraMax * WEIGHTS.textPerExtra);
    const headingSubstring = scoreDoc(doc('section', 'etcdctl basics', ''), words);
    // "etcd" is a prefix of the word "etcdctl": 9 * 0.6 = 5.4
    expect(headingSubstring).toBeCloseTo(WEIGHTS.titlePrefix * WEIGHTS.headingFactor);
    expect(headingSubstring).toBeGreaterThan(manyInText);
  });

  it('requires every word to match somewhere', () => {
    expect(scoreDoc(doc('term', 'etcd', 'a store'), ['etcd', 'scheduler'])).toBe(0);
    expect(scoreDoc(doc('term', 'etcd', 'the scheduler reads it'), ['etcd', 'scheduler'])).toBeGreaterThan(0);
  });

  it('gives a bonus to an exact title', () => {
    const exact = scoreDoc(doc('term', 'Raft', ''), ['raft']);
    const longer = scoreDoc(doc('term', 'Raft log', ''), ['raft']);
    expect(exact - longer).toBe(WEIGHTS.exactTitleBonus);
  });
});

describe('search', () => {
  const index: SearchIndex = {
    v: 1,
    docs: [
      doc('chapter', 'From kubectl apply to a running container', 'the API server writes to etcd'),
      doc('section', 'The write to etcd', 'a quorum of members agrees'),
      doc('section', 'The scheduler', 'filter and score'),
      doc('term', 'etcd', 'the key-value store that holds cluster state'),
      doc('term', 'quorum', 'a majority of etcd members'),
    ],
  };

  it('returns the glossary term, then the heading, then text matches', () => {
    expect(search(index, 'etcd').map((h) => h.doc.t)).toEqual([
      'etcd',
      'The write to etcd',
      'From kubectl apply to a running container',
      'quorum',
    ]);
  });

  it('respects the limit and returns nothing for an empty query', () => {
    expect(search(index, 'etcd', 2)).toHaveLength(2);
    expect(search(index, '  ')).toEqual([]);
    expect(search(index, 'zzz')).toEqual([]);
  });

  it('keeps index order on equal scores', () => {
    const tie: SearchIndex = { v: 1, docs: [doc('term', 'b', 'same word'), doc('term', 'a', 'same word')] };
    expect(search(tie, 'word').map((h) => h.doc.t)).toEqual(['b', 'a']);
  });
});

describe('makeSnippet', () => {
  it('centres on the first match with ellipses when clipped', () => {
    const text = `${'lorem '.repeat(40)}the etcd cluster ${'ipsum '.repeat(40)}`;
    const snippet = makeSnippet(text, ['etcd']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('the etcd cluster');
    expect(snippet.length).toBeLessThanOrEqual(142);
  });

  it('returns short text whole', () => {
    expect(makeSnippet('etcd is the store', ['etcd'])).toBe('etcd is the store');
  });
});
