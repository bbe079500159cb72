// Writes site/lib/book/seed-shingles.json: the hashes of every 10-word run in the three source
// articles (../shared/seeds), so the copied-text test needs no copy of the articles' text.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shinglesOf, wordsOf } from '../site/lib/book/shingles.ts';

const seeds = join(import.meta.dirname, '..', '..', 'shared', 'seeds');
const hashes = new Set<string>();
for (const file of readdirSync(seeds).sort()) {
  for (const { hash } of shinglesOf(wordsOf(readFileSync(join(seeds, file), 'utf8')))) hashes.add(hash);
}
const out = join(import.meta.dirname, '..', 'site', 'lib', 'book', 'seed-shingles.json');
writeFileSync(out, `${JSON.stringify([...hashes].sort())}\n`);
console.log(`${hashes.size} fingerprints of 10-word runs written to ${out}`);
