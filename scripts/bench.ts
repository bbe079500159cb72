// npm run bench: runs every benchmark module in bench/*.bench.ts, prints the figures,
// and writes them as JSON to bench-results/bench.json (one object per module).
// A benchmark module exports `name` and `run(): Promise<Record<string, number | string>>`.
// Speed is measured here, never asserted in tests (shared machines make timed tests flaky).
// Each module is first bundled with esbuild as the site ships the runtime (plain JavaScript), not run
// through tsx's on-the-fly transform, which keeps every function's name with a helper call at each
// closure's creation, a cost learners' browsers never pay. BENCH_SOURCE=1 runs the sources instead.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

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

const out = resolve(import.meta.dirname, '..', 'bench-results');
const bundles = join(out, '.bundle');
const fromSource = process.env.BENCH_SOURCE === '1';

/** bench/<file>.ts as one ES module in bench-results/.bundle (packages stay imports of node_modules). */
async function bundled(file: string): Promise<string> {
  const outfile = join(bundles, file.replace(/\.ts$/, '.mjs'));
  await build({ entryPoints: [join(dir, file)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node22', packages: 'external', logLevel: 'error' });
  return outfile;
}

// the scale and HA-hour workers run in child processes: bundled beside the modules that spawn them
if (!fromSource && files.some((f) => f.startsWith('cluster-scale'))) await bundled('scale-worker.ts');
if (!fromSource && files.some((f) => f === 'cluster.bench.ts')) await bundled('ha-hour-worker.ts');

const results: Record<string, Record<string, number | string>> = {};
const failed: string[] = [];
for (const file of files) {
  const path = fromSource ? join(dir, file) : await bundled(file);
  const mod = (await import(pathToFileURL(path).href)) as BenchModule;
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
mkdirSync(out, { recursive: true });
const meta = { source: fromSource ? 'tsx' : 'esbuild bundle', node: process.version, date: new Date().toISOString(), cpus: (await import('node:os')).cpus().length };
writeFileSync(join(out, 'bench.json'), JSON.stringify({ meta, results }, null, 2) + '\n');
process.stdout.write(`\nwrote bench-results/bench.json (${files.length} modules${failed.length ? `, failed: ${failed.join(', ')}` : ''})\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
