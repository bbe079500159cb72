// Ranks search documents for a query: every query word must match somewhere; a match in a title
// (chapter, glossary term, lab) outranks one in a section heading, which outranks one in the text.
import type { SearchDoc, SearchIndex } from './types';

export interface SearchHit {
  doc: SearchDoc;
  score: number;
  /** A short stretch of the document text around the first match, for the results list. */
  snippet: string;
}

/** Points for where a query word matched. Text points are capped below the weakest heading match. */
export const WEIGHTS = {
  titleWord: 12,
  titlePrefix: 9,
  titleSubstring: 5,
  /** Section headings count as titles scaled down by this factor. */
  headingFactor: 0.6,
  parentWord: 1.5,
  textFirst: 1,
  textPerExtra: 0.5,
  textExtraMax: 3,
  exactTitleBonus: 10,
} as const;

export const SNIPPET_CHARS = 140;

/** Lower-cased words of a query; punctuation separates words, but `-`, `.` and `/` stay inside. */
export function tokenize(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}\-./]+/u)
    .map((w) => w.replace(/^[-./]+|[-./]+$/g, ''))
    .filter((w) => w.length > 0);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How well one word matches a title: whole word, word prefix, substring, or not at all. */
function titleScore(title: string, word: string): number {
  const lower = title.toLowerCase();
  const escaped = escapeRegExp(word);
  if (new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(lower)) return WEIGHTS.titleWord;
  if (new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}`, 'u').test(lower)) return WEIGHTS.titlePrefix;
  return lower.includes(word) ? WEIGHTS.titleSubstring : 0;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1 && count <= WEIGHTS.textExtraMax; at = haystack.indexOf(needle, at + needle.length)) {
    count++;
  }
  return count;
}

function textScore(lowerText: string, word: string): number {
  const count = countOccurrences(lowerText, word);
  if (count === 0) return 0;
  return WEIGHTS.textFirst + Math.min(count - 1, WEIGHTS.textExtraMax) * WEIGHTS.textPerExtra;
}

/** Scores one document; 0 means "does not match every word". */
export function scoreDoc(doc: SearchDoc, words: readonly string[]): number {
  if (words.length === 0) return 0;
  const lowerText = doc.x.toLowerCase();
  const titleFactor = doc.k === 'section' ? WEIGHTS.headingFactor : 1;
  let total = 0;
  for (const word of words) {
    const inTitle = titleScore(doc.t, word) * titleFactor;
    const inParent = doc.p && titleScore(doc.p, word) === WEIGHTS.titleWord ? WEIGHTS.parentWord : 0;
    const inText = textScore(lowerText, word);
    const best = inTitle + inParent + inText;
    if (best === 0) return 0;
    total += best;
  }
  if (doc.t.toLowerCase() === words.join(' ')) total += WEIGHTS.exactTitleBonus * titleFactor;
  return total;
}

/** The text around the first matching word, trimmed at word boundaries, with ellipses. */
export function makeSnippet(text: string, words: readonly string[]): string {
  const lower = text.toLowerCase();
  const at = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? 0;
  let start = Math.max(0, at - Math.floor(SNIPPET_CHARS / 3));
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/** The best `limit` documents for a query, best first; ties keep index order (chapters first). */
export function search(index: SearchIndex, query: string, limit = 8): SearchHit[] {
  const words = tokenize(query);
  if (words.length === 0) return [];
  const hits: SearchHit[] = [];
  index.docs.forEach((doc) => {
    const score = scoreDoc(doc, words);
    if (score > 0) hits.push({ doc, score, snippet: '' });
  });
  // Array.prototype.sort is stable, so equal scores keep their order in the index.
  hits.sort((a, b) => b.score - a.score);
  return hits.slice(0, limit).map((hit) => ({ ...hit, snippet: makeSnippet(hit.doc.x, words) }));
}
