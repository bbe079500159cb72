import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY } from './glossary';
import { splitSections } from './search/build-index';

const CONTENT = join(import.meta.dirname, '..', '..', 'content');

/** GitHub-style heading slug, as Astro renders heading ids (enough for our plain headings). */
function slugify(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function headingSlugs(chapterId: string): Set<string> {
  const body = readFileSync(join(CONTENT, `${chapterId}.mdx`), 'utf8');
  return new Set(splitSections(body).slice(1).map((s) => slugify(s.heading)));
}

describe('glossary', () => {
  it('has at least 30 terms, the ones the book relies on among them', () => {
    expect(GLOSSARY.length).toBeGreaterThanOrEqual(30);
    const ids = new Set(GLOSSARY.map((e) => e.id));
    for (const id of ['api-server', 'etcd', 'raft', 'quorum', 'term', 'lease', 'admission', 'rbac', 'informer', 'reconcile', 'kubelet', 'cri', 'cni', 'kube-proxy', 'taint', 'toleration']) {
      expect(ids, id).toContain(id);
    }
  });

  it('uses unique, URL-safe ids', () => {
    const ids = GLOSSARY.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it('links every term to a heading that exists in its chapter', () => {
    const cache = new Map<string, Set<string>>();
    for (const entry of GLOSSARY) {
      expect(entry.see.length, `${entry.id} links to no chapter`).toBeGreaterThan(0);
      for (const link of entry.see) {
        if (!cache.has(link.chapter)) cache.set(link.chapter, headingSlugs(link.chapter));
        expect(cache.get(link.chapter), `${entry.id} -> ${link.chapter}#${link.anchor}`).toContain(link.anchor);
      }
    }
  });

  it('writes definitions as one to three sentences', () => {
    for (const entry of GLOSSARY) {
      const sentences = entry.definition.split(/(?<=[.!?])\s+(?=[A-Z`])/).length;
      expect(sentences, entry.id).toBeGreaterThanOrEqual(1);
      expect(sentences, entry.id).toBeLessThanOrEqual(3);
    }
  });
});
