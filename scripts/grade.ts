// npm run grade -- <slug> [--file PATH] [--examples] [--json]
// npm run grade -- <slug> --watch [--file PATH] [--examples]   (grades again on every save)
// npm run grade -- --all [--json]
// Grades a lab with real vitest: the hidden suite (or the visible examples) against the learner's
// workspace/<slug>.ts (or --file). Exits 1 unless every expected test passed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { labSlugs, loadLab, readManifest, RESULTS_CACHE, ROOT, WORKSPACE_DIR, workspaceFile } from './lib/labs/catalog.ts';
import { formatResults } from './lib/labs/format.ts';
import type { LabResults } from './lib/labs/results.ts';
import { grade } from './lib/labs/run-grade.ts';
import { watchGrade } from './lib/labs/watch-grade.ts';

interface Args {
  slugs: string[];
  file?: string;
  examples: boolean;
  json: boolean;
  watch: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { slugs: [], examples: false, json: false, watch: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') args.json = true;
    else if (a === '--examples') args.examples = true;
    else if (a === '--watch') args.watch = true;
    else if (a === '--all') args.slugs.push(...labSlugs());
    else if (a === '--file') args.file = argv[++i];
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else args.slugs.push(a);
  }
  if (args.slugs.length === 0) throw new Error('usage: npm run grade -- <lab> [--file PATH] [--examples] [--json] | --all');
  if (args.file && args.slugs.length > 1) throw new Error('--file grades one lab at a time');
  if (args.watch && (args.slugs.length > 1 || args.json)) throw new Error('--watch grades one lab, for a person (no --json)');
  return args;
}

function gradeOptions(slug: string, args: Args) {
  const lab = loadLab(slug);
  const file = resolve(args.file ?? workspaceFile(slug));
  if (!existsSync(file)) {
    throw new Error(`${relative(ROOT, file)} does not exist: start the lab with npm run lab -- start ${slug}`);
  }
  const suite = args.examples ? ('examples' as const) : ('hidden' as const);
  const expectedNames = readManifest(lab)[suite];
  return { lab, file, fileLabel: relative(ROOT, file), suite, expectedNames };
}

async function gradeOne(slug: string, args: Args): Promise<LabResults> {
  return grade(gradeOptions(slug, args));
}

/** Grades on every save until Ctrl+C; never resolves. */
function watchOne(slug: string, args: Args): Promise<number> {
  const color = process.stdout.isTTY === true;
  watchGrade({
    ...gradeOptions(slug, args),
    report(results, ms) {
      if (!args.examples && !args.file) remember(results);
      const when = new Date().toTimeString().slice(0, 8);
      console.log(`\n${'─'.repeat(8)} ${when}, graded in ${Math.round(ms)} ms ${'─'.repeat(8)}\n`);
      console.log(formatResults(results, color));
      console.log('\nSave the file to grade it again; Ctrl+C to stop.');
    },
  });
  return new Promise(() => {});
}

function remember(results: LabResults): void {
  if (!existsSync(WORKSPACE_DIR)) mkdirSync(WORKSPACE_DIR, { recursive: true });
  const cache = existsSync(RESULTS_CACHE) ? (JSON.parse(readFileSync(RESULTS_CACHE, 'utf8')) as Record<string, unknown>) : {};
  cache[results.lab] = { passed: results.passed, summary: results.summary, file: results.file };
  writeFileSync(RESULTS_CACHE, JSON.stringify(cache, null, 2) + '\n');
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.watch) return watchOne(args.slugs[0]!, args);
  const all: LabResults[] = [];
  for (const slug of args.slugs) {
    const results = await gradeOne(slug, args);
    all.push(results);
    if (!args.examples && !args.file) remember(results);
    if (!args.json) console.log(formatResults(results, process.stdout.isTTY === true) + '\n');
  }
  if (args.json) console.log(JSON.stringify(all.length === 1 ? all[0] : all, null, 2));
  return all.every((r) => r.passed) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
