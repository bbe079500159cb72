// npm run soak -- --seeds 10000 [--from 1] [--only raft]
// Runs every seeded fault-schedule module in soak/*.soak.ts over many seeds. A module exports
// `name` and `runSeed(seed): { ok: true } | { ok: false; message: string }`. A failure prints
// the seed and the command that replays it; the process exits non-zero if any seed failed.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface SoakModule {
  name: string;
  runSeed(seed: number): Promise<{ ok: true } | { ok: false; message: string }>;
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const seeds = flag('seeds', 1000);
const from = flag('from', 1);
const onlyIdx = process.argv.indexOf('--only');
const only = onlyIdx >= 0 ? process.argv[onlyIdx + 1] : undefined;

const dir = resolve(import.meta.dirname, '..', 'soak');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.soak.ts') && (!only || f.includes(only)))
  .sort();
let failures = 0;
for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as SoakModule;
  const started = performance.now();
  let failed = 0;
  for (let seed = from; seed < from + seeds; seed++) {
    const r = await mod.runSeed(seed);
    if (!r.ok) {
      failed++;
      console.error(`FAIL ${mod.name} seed=${seed}: ${r.message}`);
      console.error(`  replay: npm run soak -- --only ${file.replace('.soak.ts', '')} --from ${seed} --seeds 1`);
    }
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${mod.name}: ${seeds} seeds from ${from}, ${failed} failed, ${secs} s`);
  failures += failed;
}
process.exit(failures === 0 ? 0 : 1);
