// Every lab folder is complete and follows the lab contract (docs/ARCHITECTURE.md, "Labs and
// grading"): valid frontmatter, the exported names it promises, suites that import only the
// fixed specifier and the runtime's public faces, learner files with type-only imports.
// (tests.json being up to date is proven in labs.proof.test.ts: grading the solution passes only
// if exactly the names in tests.json ran.)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLabMeta } from '../scripts/lib/labs/frontmatter.ts';
import { labSlugs, LABS_DIR } from '../scripts/lib/labs/catalog.ts';
import { loadLearnerModule } from '../site/lib/grading/worker/sandbox.ts';
import type { LabScenario } from './lab-scenario.ts';

const REQUIRED = ['lab.mdx', 'starter.ts', 'solution.ts', 'hidden.test.ts', 'examples.test.ts', 'tests.json'];
const RUNTIME_FACES = ['api', 'apiserver', 'controllers', 'etcd', 'kubelet', 'network', 'raft', 'scheduler'].map((m) => `runtime/${m}/index.ts`);
const slugs = labSlugs();

interface ImportLine {
  typeOnly: boolean;
  spec: string;
}

function importsOf(source: string): ImportLine[] {
  const out: ImportLine[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(/g;
  for (const m of source.matchAll(re)) {
    if (m[0].includes('require(')) out.push({ typeOnly: false, spec: 'require()' });
    else out.push({ typeOnly: Boolean(m[2]), spec: (m[3] ?? m[4] ?? m[5])! });
  }
  return out;
}

const isRuntimeFace = (spec: string) => RUNTIME_FACES.some((face) => spec.endsWith(face) && /^(\.\.\/)+runtime\//.test(spec));
/** The runtime's own public face (createCluster): suites and scenarios may build a live cluster. */
const isRuntimeIndex = (spec: string) => /^(\.\.\/)+runtime\/index\.ts$/.test(spec);

function learnerFiles(slug: string): string[] {
  const dir = join(LABS_DIR, slug);
  const mutants = existsSync(join(dir, 'mutants')) ? readdirSync(join(dir, 'mutants')).filter((f) => f.endsWith('.ts')) : [];
  return ['starter.ts', 'solution.ts', ...mutants.map((m) => `mutants/${m}`)];
}

it('finds the labs', () => {
  expect(slugs).toEqual(expect.arrayContaining(['replicaset-reconcile', 'scheduler-scoring']));
});

describe.each(slugs)('lab %s', (slug) => {
  const dir = join(LABS_DIR, slug);
  const parsed = parseLabMeta(readFileSync(join(dir, 'lab.mdx'), 'utf8'), `labs/${slug}/lab.mdx`);

  it('has every file of the lab format and at least five mutants', () => {
    const missing = REQUIRED.filter((f) => !existsSync(join(dir, f)));
    expect(missing).toEqual([]);
    expect(learnerFiles(slug).filter((f) => f.startsWith('mutants/')).length).toBeGreaterThanOrEqual(5);
  });

  it('has a valid frontmatter', () => {
    expect('error' in parsed ? parsed.error : null).toBeNull();
  });

  it('lists hidden and example test names in tests.json', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'tests.json'), 'utf8')) as { hidden: string[]; examples: string[] };
    expect(manifest.hidden.length).toBeGreaterThan(0);
    expect(manifest.examples.length).toBeGreaterThan(0);
    expect(new Set(manifest.hidden).size, 'hidden test names are unique').toBe(manifest.hidden.length);
  });

  // Learner files (the forged pass among them) are evaluated in the graders' sandbox, never imported
  // into this worker: forged-pass.ts rewrites Object.is and chai's config when it is imported,
  // which silenced every assertion after it in this file.
  it.each(learnerFiles(slug))('%s exports exactly the names in the frontmatter', (file) => {
    const meta = 'meta' in parsed ? parsed.meta : null;
    const mod = loadLearnerModule(readFileSync(join(dir, file), 'utf8'), { log: () => {} }).exports;
    expect(Object.keys(mod).sort()).toEqual([...(meta?.exports ?? [])].sort());
    for (const name of meta?.exports ?? []) expect(typeof mod[name], `${name} is a function`).toBe('function');
  });

  it.each(learnerFiles(slug))('%s has only type imports, from the runtime public faces', (file) => {
    const bad = importsOf(readFileSync(join(dir, file), 'utf8')).filter((i) => !i.typeOnly || !isRuntimeFace(i.spec));
    expect(bad).toEqual([]);
  });

  // Suites may also use fast-check and helper modules of their own folder (e.g. ./reference.ts,
  // which re-exports the solution their differential tests compare with), never the starter.
  const isLocalHelper = (spec: string) => /^\.\/[\w.-]+\.ts$/.test(spec) && spec !== './starter.ts' && existsSync(join(dir, spec));
  const suiteMayImport = (spec: string) =>
    spec === 'vitest' || spec === 'fast-check' || spec === '@lab/submission' || isRuntimeFace(spec) || isRuntimeIndex(spec) || isLocalHelper(spec);

  it.each(['hidden.test.ts', 'examples.test.ts'])('%s imports only vitest, fast-check, @lab/submission, runtime faces and its helpers', (file) => {
    const source = readFileSync(join(dir, file), 'utf8');
    const bad = importsOf(source).filter((i) => !suiteMayImport(i.spec));
    expect(bad).toEqual([]);
    expect(importsOf(source).some((i) => i.spec === '@lab/submission'), 'imports the learner module').toBe(true);
    expect(source, 'no .only or .skip').not.toMatch(/\.(only|skip)\(/);
  });

  const helpers = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !['starter.ts', 'solution.ts', 'scenario.ts'].includes(f));
  it.runIf(helpers.length > 0).each(helpers)('suite helper %s imports only what suites may', (file) => {
    const bad = importsOf(readFileSync(join(dir, file), 'utf8')).filter((i) => i.spec === '@lab/submission' || !suiteMayImport(i.spec));
    expect(bad).toEqual([]);
  });

  // Optional: "Run in cluster" (labs/lab-scenario.ts). The site finds scenario.ts by its name.
  it.runIf(existsSync(join(dir, 'scenario.ts')))('scenario.ts is a LabScenario over the runtime\'s public faces', async () => {
    const bad = importsOf(readFileSync(join(dir, 'scenario.ts'), 'utf8'))
      .filter((i) => i.spec !== '../lab-scenario.ts' && !isRuntimeFace(i.spec) && !isRuntimeIndex(i.spec));
    expect(bad, 'scenario.ts imports only ../lab-scenario.ts and the runtime\'s public index.ts files').toEqual([]);
    const scenario = ((await import(join(dir, 'scenario.ts'))) as { default: LabScenario }).default;
    for (const method of ['cluster', 'plug', 'start', 'story', 'compare'] as const) expect(typeof scenario[method], method).toBe('function');
    expect(scenario.budgetMs).toBeGreaterThan(0);
    const meta = 'meta' in parsed ? parsed.meta : null;
    expect(scenario.exports.length).toBeGreaterThan(0);
    expect(scenario.exports.filter((name) => !(meta?.exports ?? []).includes(name)), 'plugs in only exports the lab declares').toEqual([]);
    if (scenario.visibleMutant) expect(existsSync(join(dir, 'mutants', scenario.visibleMutant)), `mutants/${scenario.visibleMutant} exists`).toBe(true);
  });
});

// Last in the file: nothing loaded above (every lab's forged pass included) reached this worker's assertions.
it('still fails a false assertion after every learner file was loaded', () => {
  expect(() => expect(1).toBe(2)).toThrow();
  expect(() => expect({ a: 1 }).toEqual({ a: 2 })).toThrow();
  expect(Object.is(1, 2)).toBe(false);
});
