// /search-index.json: the offline search index (chapters by section, glossary terms, labs), built
// from the content collections. An endpoint rather than a post-build step, so `astro dev` serves
// the same index as the static build. See docs/ARCHITECTURE.md "Search".
import type { APIRoute } from 'astro';
import { render } from 'astro:content';
import { getChapters, getLabs } from '../lib/collections';
import { buildSearchIndex, type ChapterSource } from '../lib/search/build-index';
import { GLOSSARY } from '../lib/glossary';
import { sortChapters } from '../lib/chapters';

export const GET: APIRoute = async () => {
  const chapters: ChapterSource[] = [];
  for (const entry of sortChapters(await getChapters())) {
    const { headings } = await render(entry);
    chapters.push({
      id: entry.id,
      title: entry.data.title,
      summary: entry.data.summary,
      body: entry.body ?? '',
      headings,
    });
  }
  const labs = (await getLabs()).map((lab) => ({
    id: lab.id,
    title: lab.data.title,
    summary: lab.data.summary,
  }));
  const terms = GLOSSARY.map((entry) => ({ id: entry.id, term: entry.term, definition: entry.definition }));
  const index = buildSearchIndex({ chapters, terms, labs });
  return new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } });
};
