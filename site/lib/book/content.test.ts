// The book's content rules (docs/WRITING.md), checked on every chapter in content/:
// our own words (no 10-word run from the source articles), commands shown only through the
// simulation (Session/LiveCluster), and, for every chapter that is not a draft: a live widget,
// a self-check of 3 to 6 questions, the real-code section, and links that resolve.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { proseOfMdx, shinglesOf, wordsOf } from './shingles.ts';
import { CHAPTER_CONCEPTS } from './concepts.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const contentDir = join(root, 'content');
const chapterFiles = readdirSync(contentDir).filter((f) => f.endsWith('.mdx')).sort();
const seedHashes = new Set<string>(JSON.parse(readFileSync(join(import.meta.dirname, 'seed-shingles.json'), 'utf8')) as string[]);
const labSlugs = new Set(readdirSync(join(root, 'labs'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name));
const chapterIds = new Set(chapterFiles.map((f) => f.replace(/\.mdx$/, '')));

function frontmatterOf(mdx: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(mdx);
  return m ? (parseYaml(m[1]!) as Record<string, unknown>) : {};
}

/** The chapter a lab names in its lab.mdx (undefined for a folder that is not a lab yet). */
function labChapter(slug: string): unknown {
  const file = join(root, 'labs', slug, 'lab.mdx');
  return existsSync(file) ? frontmatterOf(readFileSync(file, 'utf8'))['chapter'] : undefined;
}

describe.each(chapterFiles)('%s', (file) => {
  const mdx = readFileSync(join(contentDir, file), 'utf8');
  const front = frontmatterOf(mdx);
  const draft = front['draft'] === true;

  it('repeats no run of 10 words from the source articles', () => {
    const copied = shinglesOf(wordsOf(proseOfMdx(mdx))).filter((s) => seedHashes.has(s.hash)).map((s) => s.run);
    expect(copied, `runs of 10 words found in the articles: rephrase them`).toEqual([]);
  });

  it('shows kubectl and etcdctl only through the simulation (Session or LiveCluster), never in a code block', () => {
    const blocks = [...mdx.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    const typed = blocks.flatMap((b) => b.split('\n')).filter((line) => /^\s*(\$\s*)?(kubectl|etcdctl)\s/.test(line));
    expect(typed, 'put these commands in a <Session> so the build runs them').toEqual([]);
  });

  it('links only to chapters and labs that exist', () => {
    const broken: string[] = [];
    for (const m of mdx.matchAll(/\]\((\/[^)\s#]*)(?:#[^)]*)?\)|href=["'](\/[^"'#]*)/g)) {
      const path = (m[1] ?? m[2])!;
      const chapter = /^\/chapters\/([^/]+)\/?$/.exec(path);
      const lab = /^\/labs\/([^/]+)\/?$/.exec(path);
      if (chapter && !chapterIds.has(chapter[1]!)) broken.push(path);
      else if (lab && !labSlugs.has(lab[1]!)) broken.push(path);
      else if (!chapter && !lab && !['/glossary/', '/labs/', '/progress/', '/'].includes(path)) broken.push(path);
    }
    expect(broken).toEqual([]);
  });

  it.runIf(!draft)('has a live cluster, a self-check of 3 to 6 questions and the real-code section', () => {
    expect(mdx, 'a <LiveCluster> widget').toMatch(/<LiveCluster\b/);
    const selfCheck = /<SelfCheck\b[\s\S]*?\/>\s*$/m.exec(mdx)?.[0] ?? '';
    const questions = selfCheck.match(/\bquestion:/g)?.length ?? 0;
    expect(questions, 'questions in the <SelfCheck>').toBeGreaterThanOrEqual(3);
    expect(questions).toBeLessThanOrEqual(6);
    expect(selfCheck.match(/\bexplanation:/g)?.length ?? 0, 'every question explained').toBe(questions);
    expect(mdx).toMatch(/^## Where this lives in the real code$/m);
  });

  it.runIf(!draft)('has at least one lab (its labs: or a lab naming it) and links one from its text', () => {
    const id = file.replace(/\.mdx$/, '');
    const naming = [...labSlugs].filter((slug) => labChapter(slug) === id);
    const listed = [...(Array.isArray(front['labs']) ? (front['labs'] as string[]) : []), ...naming];
    const linked = [...mdx.matchAll(/\]\(\/labs\/([^/)]+)\/?\)/g)].map((m) => m[1]!);
    expect(listed.length, 'labs: in the frontmatter, or a lab whose chapter: is this one').toBeGreaterThan(0);
    expect(listed.filter((slug) => linked.includes(slug)), 'a link to one of its labs in the text').not.toEqual([]);
  });
});

describe('the book', () => {
  it('has ten chapters, ordered 1 to 10, none of them a draft', () => {
    const orders = chapterFiles.map((f) => frontmatterOf(readFileSync(join(contentDir, f), 'utf8')));
    expect(orders.map((f) => f['order'])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(orders.filter((f) => f['draft'] === true)).toEqual([]);
    expect(Object.keys(CHAPTER_CONCEPTS).sort()).toEqual(chapterFiles.map((f) => f.replace(/\.mdx$/, '')));
  });

  it.each(Object.entries(CHAPTER_CONCEPTS))('%s teaches each concept of its coverage list', (id, concepts) => {
    const text = readFileSync(join(contentDir, `${id}.mdx`), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
    const missing = Object.entries(concepts).filter(([, re]) => !re.test(text)).map(([name]) => name);
    expect(missing, `concepts missing from ${id}`).toEqual([]);
  });

  it('has its seed fingerprints (npm run seeds:fingerprint)', () => {
    expect(seedHashes.size).toBeGreaterThan(1000);
    // where the articles are at hand (a developer machine, CI), the fingerprints are theirs
    const seeds = join(root, '..', 'shared', 'seeds');
    if (existsSync(seeds)) {
      for (const f of readdirSync(seeds)) {
        for (const s of shinglesOf(wordsOf(readFileSync(join(seeds, f), 'utf8')))) expect(seedHashes.has(s.hash), s.run).toBe(true);
      }
    }
  });

  it('catches a copied sentence (the check can fail)', () => {
    // a probe made of the first 10 words of the first article, taken from the fingerprints' own source when present
    const seeds = join(root, '..', 'shared', 'seeds');
    if (!existsSync(seeds)) return;
    const first = readdirSync(seeds).sort()[0]!;
    const run = wordsOf(readFileSync(join(seeds, first), 'utf8')).slice(40, 50).join(' ');
    const copied = shinglesOf(wordsOf(`Some words of ours. ${run}. And more.`)).filter((s) => seedHashes.has(s.hash));
    expect(copied.length).toBeGreaterThan(0);
  });
});
