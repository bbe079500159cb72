import { describe, expect, it } from 'vitest';
import { buildSearchIndex, chapterDocs, mdxToText, splitSections, type ChapterSource } from './build-index';

const body = [
  "import Callout from '../site/components/Callout.astro';",
  '',
  'The intro talks about the **API server**.',
  '',
  '## The write to etcd',
  '',
  'etcd keeps every object. See [Raft](https://raft.github.io/).',
  '',
  '```bash',
  '## not a heading: a shell comment',
  'etcdctl get /registry --prefix --keys-only',
  '```',
  '',
  '### Quorum',
  '',
  '<Callout type="note">A majority of members must agree.</Callout>',
].join('\n');

const chapter: ChapterSource = {
  id: '01-journey',
  title: 'From kubectl apply to a running container',
  summary: 'One command, followed everywhere.',
  body,
  headings: [
    { depth: 1, slug: 'ignored', text: 'Ignored h1' },
    { depth: 2, slug: 'the-write-to-etcd', text: 'The write to etcd' },
    { depth: 3, slug: 'quorum', text: 'Quorum' },
  ],
};

describe('splitSections', () => {
  it('splits at h2 and h3 but never inside a code fence', () => {
    const sections = splitSections(body);
    expect(sections.map((s) => [s.depth, s.heading])).toEqual([
      [0, ''],
      [2, 'The write to etcd'],
      [3, 'Quorum'],
    ]);
    expect(sections[1]!.markdown).toContain('## not a heading');
  });
});

describe('mdxToText', () => {
  it.each([
    ['drops imports', "import X from './x';\nhello", 'hello'],
    ['keeps link text, drops the target', 'see [Raft](https://raft.github.io/) now', 'see Raft now'],
    ['drops tags, keeps their text', '<Callout type="warning">Careful</Callout>', 'Careful'],
    ['drops emphasis and code ticks', '**bold** and `code`', 'bold and code'],
    ['keeps underscores in identifiers', 'set `max_surge` now', 'set max_surge now'],
    ['drops table pipes', '| a | b |', 'a b'],
    ['drops list markers', '- one\n- two\n1. three', 'one two three'],
    ['drops MDX comments', 'a {/* hidden */} b', 'a b'],
  ])('%s', (_name, input, expected) => {
    expect(mdxToText(input)).toBe(expected);
  });
});

describe('chapterDocs', () => {
  it('makes a chapter doc and one doc per section with Astro slugs as anchors', () => {
    const docs = chapterDocs(chapter);
    expect(docs.map((d) => [d.k, d.t, d.u])).toEqual([
      ['chapter', chapter.title, '/chapters/01-journey/'],
      ['section', 'The write to etcd', '/chapters/01-journey/#the-write-to-etcd'],
      ['section', 'Quorum', '/chapters/01-journey/#quorum'],
    ]);
    expect(docs[0]!.x).toBe('One command, followed everywhere. The intro talks about the API server.');
    expect(docs[1]!.x).toContain('etcdctl get /registry --prefix --keys-only');
    expect(docs[1]!.x).not.toContain('https://');
    expect(docs[2]!.p).toBe(chapter.title);
  });

  it('refuses headings that disagree with what Astro rendered', () => {
    expect(() => chapterDocs({ ...chapter, headings: chapter.headings.slice(0, 2) })).toThrow(
      /has 2 h2\/h3 headings in its MDX but Astro rendered 1/,
    );
  });
});

describe('buildSearchIndex', () => {
  it('puts chapters, then glossary terms, then labs, with their urls', () => {
    const index = buildSearchIndex({
      chapters: [chapter],
      terms: [{ id: 'etcd', term: 'etcd', definition: 'The *key-value* store.' }],
      labs: [{ id: 'reconcile', title: 'Write a reconciler', summary: 'Make actual match desired.' }],
    });
    expect(index.v).toBe(1);
    expect(index.docs.map((d) => [d.k, d.u])).toEqual([
      ['chapter', '/chapters/01-journey/'],
      ['section', '/chapters/01-journey/#the-write-to-etcd'],
      ['section', '/chapters/01-journey/#quorum'],
      ['term', '/glossary/#etcd'],
      ['lab', '/labs/reconcile/'],
    ]);
    expect(index.docs[3]!.x).toBe('The key-value store.');
  });
});
