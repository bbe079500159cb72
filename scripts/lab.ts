// npm run lab -- list | start <slug> [--force] | manifest [slug...]
// Rustlings-style lab runner: list the labs with their status, copy a starter into workspace/,
// and regenerate tests.json (the exact test names grading expects).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { labSlugs, loadLab, RESULTS_CACHE, ROOT, WORKSPACE_DIR, workspaceFile } from './lib/labs/catalog.ts';
import { buildManifest } from './lib/labs/list-tests.ts';

type Cache = Record<string, { passed: boolean; summary: { passed: number; failed: number; total: number } }>;

function list(): void {
  const cache: Cache = existsSync(RESULTS_CACHE) ? (JSON.parse(readFileSync(RESULTS_CACHE, 'utf8')) as Cache) : {};
  for (const slug of labSlugs()) {
    const { meta } = loadLab(slug);
    const cached = cache[slug];
    const status = !existsSync(workspaceFile(slug))
      ? 'not started'
      : cached === undefined
        ? 'started, not graded'
        : cached.passed
          ? 'passed'
          : `in progress (${cached.summary.passed}/${cached.summary.total} tests pass)`;
    console.log(`${slug.padEnd(24)} ${meta.difficulty.padEnd(13)} ~${String(meta.estimatedMinutes).padStart(3)} min  ${status}`);
    console.log(`${''.padEnd(24)} ${meta.title}`);
  }
}

function start(slug: string, force: boolean): void {
  const lab = loadLab(slug);
  const target = workspaceFile(slug);
  if (existsSync(target) && !force) {
    console.log(`${relative(ROOT, target)} already exists; keeping your work (use --force to start over).`);
    return;
  }
  mkdirSync(WORKSPACE_DIR, { recursive: true });
  const starter = readFileSync(join(lab.dir, 'starter.ts'), 'utf8');
  // The starter's type imports are relative to labs/<slug>/; fix them for workspace/.
  writeFileSync(target, starter.replaceAll("'../../runtime/", "'../runtime/"));
  console.log(`Created ${relative(ROOT, target)}.`);
  console.log(`Instructions: labs/${slug}/lab.mdx. Examples: npm run grade -- ${slug} --examples. Grade: npm run grade -- ${slug}`);
}

async function manifest(slugs: string[]): Promise<void> {
  for (const slug of slugs.length ? slugs : labSlugs()) {
    const lab = loadLab(slug);
    const m = await buildManifest(lab);
    writeFileSync(join(lab.dir, 'tests.json'), JSON.stringify(m, null, 2) + '\n');
    console.log(`labs/${slug}/tests.json: ${m.hidden.length} hidden, ${m.examples.length} examples`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'list') list();
  else if (command === 'start' && rest[0]) start(rest[0], rest.includes('--force'));
  else if (command === 'manifest') await manifest(rest);
  else {
    console.error('usage: npm run lab -- list | start <slug> [--force] | manifest [slug...]');
    return 2;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  },
);
