// The shape of the offline search index (served as /search-index.json, built from the
// content collections by site/pages/search-index.json.ts). Field names are one letter to keep
// the JSON small: the whole book is fetched once, lazily, on first focus of the search box.

/** What a search result points at. */
export type SearchDocKind = 'chapter' | 'section' | 'term' | 'lab';

export interface SearchDoc {
  /** kind */
  k: SearchDocKind;
  /** title: a chapter, glossary term or lab title, or a section heading */
  t: string;
  /** parent: for a section, the title of its chapter */
  p?: string;
  /** url: site-absolute, with a #fragment for sections and terms */
  u: string;
  /** plain text of the document (no markup), searched and used for snippets */
  x: string;
}

export interface SearchIndex {
  /** format version; bump when the shape changes */
  v: 1;
  docs: SearchDoc[];
}
