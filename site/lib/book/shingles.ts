// Fingerprints of word runs, for the "our own words" check: the book may follow the source
// articles' structure and facts but never repeat a run of SHINGLE_WORDS words from them. The
// repository keeps only hashes of the articles' runs (seed-shingles.json, made by
// `npm run seeds:fingerprint` from ../shared/seeds), never their text.

export const SHINGLE_WORDS = 10;

/** Lower-case words, punctuation dropped ("isn't" -> "isn", "t"; "kube-proxy" -> "kube", "proxy"). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);
}

/** FNV-1a 32-bit of a string, as 8 hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Each run of SHINGLE_WORDS consecutive words: its hash and the words themselves. */
export function shinglesOf(words: readonly string[]): { hash: string; run: string }[] {
  const out: { hash: string; run: string }[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
    const run = words.slice(i, i + SHINGLE_WORDS).join(' ');
    out.push({ hash: fnv1a(run), run });
  }
  return out;
}

/**
 * The prose of an MDX chapter: without frontmatter (its `sources` quote the articles' section
 * titles on purpose), imports, fenced code (manifests and commands are the same Kubernetes API
 * in any text) and JSX tags' attribute syntax. Strings inside component props (self-check
 * questions, captions) stay: they are prose too.
 */
export function proseOfMdx(mdx: string): string {
  return mdx
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/^import .*$/gm, '')
    .replace(/^```[\s\S]*?^```$/gm, '')
    // a command in a Session's or LiveCluster's props is code, not prose
    .replace(/(['"`])\s*(?:kubectl|etcdctl)\s[^'"`]*\1/g, '');
}
