// Reading order of the book: chapters sorted by `order` and grouped by `part`, in one place for
// the sidebar, the home page and previous/next links.
import type { Chapter } from './collections';

export type { Chapter };

export interface Part {
  name: string;
  chapters: Chapter[];
}

export function sortChapters(chapters: readonly Chapter[]): Chapter[] {
  return [...chapters].sort((a, b) => a.data.order - b.data.order);
}

/** Parts in the order of their first chapter, each with its chapters in reading order. */
export function groupByPart(chapters: readonly Chapter[]): Part[] {
  const parts: Part[] = [];
  for (const chapter of sortChapters(chapters)) {
    let part = parts.find((p) => p.name === chapter.data.part);
    if (!part) {
      part = { name: chapter.data.part, chapters: [] };
      parts.push(part);
    }
    part.chapters.push(chapter);
  }
  return parts;
}

export function chapterHref(id: string): string {
  return `/chapters/${id}/`;
}
