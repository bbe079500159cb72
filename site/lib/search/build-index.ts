// Builds the search index from chapter MDX, glossary entries and labs. Pure functions (no Astro
// imports) so they can be unit-tested; site/pages/search-index.json.ts feeds them the collections.
import type { SearchDoc, SearchIndex } from './types';

/** A chapter as the index builder needs it: raw MDX body plus the headings Astro rendered. */
export interface ChapterSource {
  id: string;
  title: string;
  summary: string;
  /** The MDX body (frontmatter excluded), as `entry.body` of the content collection. */
  body: string;
  /** Astro's rendered headings (`render(entry).headings`): their slugs are the page anchors. */
  headings: { depth: number; slug: string; text: string }[];
}

export interface TermSource {
  id: string;
  term: string;
  definition: string;
}

export interface LabSource {
  id: string;
  title: string;
  summary: string;
}

/** Longest text kept per document: enough for ranking and snippets, bounded for the index size. */
export const MAX_DOC_TEXT_CHARS = 6000;

const FENCE = /^\s*(```|~~~)/;
const SECTION_HEADING = /^(#{2,3})\s+(.*)$/;

export interface RawSection {
  /** Heading depth (2 or 3), or 0 for the text before the first heading. */
  depth: number;
  heading: string;
  markdown: string;
}

/**
 * Splits an MDX body at its level-2 and level-3 headings. Lines inside code fences are never
 * headings (a `## comment` in a shell block stays text).
 */
export function splitSections(body: string): RawSection[] {
  const sections: RawSection[] = [{ depth: 0, heading: '', markdown: '' }];
  let inFence = false;
  for (const line of body.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const match = inFence ? null : SECTION_HEADING.exec(line);
    if (match) {
      sections.push({ depth: match[1]!.length, heading: match[2]!.trim(), markdown: '' });
    } else {
      sections[sections.length - 1]!.markdown += line + '\n';
    }
  }
  return sections;
}

/** Turns MDX into plain searchable text: no imports, tags, link targets or markup characters. */
export function mdxToText(mdx: string): string {
  return mdx
    .split('\n')
    .filter((line) => !/^\s*(import|export)\s/.test(line) && !FENCE.test(line))
    .join('\n')
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, ' ') // MDX comments
    .replace(/<[A-Za-z/][^>]*>/g, ' ') // JSX and HTML tags (their text content stays)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: keep alt text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // links: keep link text
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '') // list markers
    .replace(/^\s*>\s?/gm, '') // blockquotes
    .replace(/^\s*#{1,6}\s+/gm, '') // stray headings
    .replace(/[*`]+/g, '') // emphasis and code ticks (underscores stay: they are in identifiers)
    .replace(/\|/g, ' ') // table pipes
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string): string {
  return text.length <= MAX_DOC_TEXT_CHARS ? text : text.slice(0, MAX_DOC_TEXT_CHARS);
}

export function chapterUrl(id: string): string {
  return `/chapters/${id}/`;
}

/**
 * One document for the chapter (title + summary + introduction) and one per h2/h3 section.
 * Throws if the MDX headings and Astro's rendered headings disagree in number, because then
 * result links would point at the wrong anchors.
 */
export function chapterDocs(chapter: ChapterSource): SearchDoc[] {
  const sections = splitSections(chapter.body);
  const rendered = chapter.headings.filter((h) => h.depth === 2 || h.depth === 3);
  const withHeadings = sections.slice(1);
  if (withHeadings.length !== rendered.length) {
    throw new Error(
      `search index: chapter "${chapter.id}" has ${withHeadings.length} h2/h3 headings in its MDX but ` +
        `Astro rendered ${rendered.length}; write section headings as Markdown "## " lines, not inside components`,
    );
  }
  const url = chapterUrl(chapter.id);
  const intro = mdxToText(sections[0]!.markdown);
  const docs: SearchDoc[] = [
    { k: 'chapter', t: chapter.title, u: url, x: clip(`${chapter.summary} ${intro}`.trim()) },
  ];
  withHeadings.forEach((section, i) => {
    const heading = rendered[i]!;
    docs.push({
      k: 'section',
      t: heading.text,
      p: chapter.title,
      u: `${url}#${heading.slug}`,
      x: clip(mdxToText(section.markdown)),
    });
  });
  return docs;
}

export function termDocs(terms: readonly TermSource[]): SearchDoc[] {
  return terms.map((term) => ({
    k: 'term',
    t: term.term,
    p: 'Glossary',
    u: `/glossary/#${term.id}`,
    x: clip(mdxToText(term.definition)),
  }));
}

export function labDocs(labs: readonly LabSource[]): SearchDoc[] {
  return labs.map((lab) => ({ k: 'lab', t: lab.title, p: 'Lab', u: `/labs/${lab.id}/`, x: clip(lab.summary) }));
}

export function buildSearchIndex(input: {
  chapters: readonly ChapterSource[];
  terms: readonly TermSource[];
  labs: readonly LabSource[];
}): SearchIndex {
  return {
    v: 1,
    docs: [...input.chapters.flatMap(chapterDocs), ...termDocs(input.terms), ...labDocs(input.labs)],
  };
}
