// npm run bench: runs every benchmark module in bench/*.bench.ts, prints the figures,
// and writes them as JSON to bench-results/bench.json (one object per module).
// A benchmark module exports `name` and `run(): Promise<Record<string, number | string>>`.
// Speed is measured here, never asserted in tests (shared machines make timed tests flaky).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface BenchModule {
  name: string;
  run(): Promise<Record<string, number | string>>;
}

const dir = resolve(import.meta.dirname, '..', 'bench');
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const results: Record<string, Record<string, number | string>> = {};
const failed: string[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as BenchModule;
  process.stdout.write(`\n== ${mod.name} (${file})\n`);
  try {
    const figures = await mod.run();
    for (const [k, v] of Object.entries(figures)) {
      process.stdout.write(`  ${k.padEnd(58)} ${typeof v === 'number' ? v.toLocaleString('en-US') : v}\n`);
    }
    results[mod.name] = figures;
  } catch (e) {
    // one benchmark that breaks (e.g. a scale limit) must not lose the figures of the others
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    process.stdout.write(`  FAILED: ${message}\n`);
    results[mod.name] = { error: message };
    failed.push(mod.name);
  }
}
const out = resolve(import.meta.dirname, '..', 'bench-results');
mkdirSync(out, { recursive: true });
const meta = { node: process.version, date: new Date().toISOString(), cpus: (await import('node:os')).cpus().length };
writeFileSync(join(out, 'bench.json'), JSON.stringify({ meta, results }, null, 2) + '\n');
process.stdout.write(`\nwrote bench-results/bench.json (${files.length} modules${failed.length ? `, failed: ${failed.join(', ')}` : ''})\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
