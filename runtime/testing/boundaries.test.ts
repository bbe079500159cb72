// The code mirrors the book: components never call each other directly, they talk through the
// API server, and only the API server talks to the store. This test reads every runtime source
// file, builds the import graph between subsystems, and fails on any edge the book forbids.
// It also enforces determinism: no real clock, no real randomness, no DOM, no Node built-ins.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const RUNTIME = resolve(import.meta.dirname, '..');

/**
 * Which subsystems each subsystem may import (always through the target's index.ts).
 * A subsystem not listed here may import only `kernel` and `api`.
 * - etcd is reached only by apiserver (the only door), by cli (etcdctl is an etcd client),
 *   by cluster (which assembles the members) and by testing.
 * - scheduler, controllers and kubelet reach the cluster only through client/.
 */
const ALLOWED: Record<string, readonly string[]> = {
  kernel: [],
  raft: ['kernel'],
  etcd: ['kernel', 'raft'],
  api: ['kernel'],
  apiserver: ['kernel', 'api', 'etcd'],
  client: ['kernel', 'api'],
  scheduler: ['kernel', 'api', 'client'],
  controllers: ['kernel', 'api', 'client'],
  kubelet: ['kernel', 'api', 'client', 'cri', 'network'],
  cri: ['kernel', 'api'],
  network: ['kernel', 'api', 'client'],
  cli: ['kernel', 'api', 'client', 'etcd'],
  // the cloud-controller-manager is a controller: it reaches the cluster only through client/
  cloud: ['kernel', 'api', 'client'],
  cluster: [
    'kernel',
    'raft',
    'etcd',
    'api',
    'apiserver',
    'client',
    'scheduler',
    'controllers',
    'kubelet',
    'cri',
    'network',
    'cli',
    'cloud',
  ],
  testing: ['kernel', 'raft', 'etcd', 'api', 'apiserver', 'client', 'cluster', 'cli'],
};

/** Packages the runtime may import from npm (pure, browser-safe). */
const ALLOWED_PACKAGES = new Set(['yaml']);

function sourceFiles(dir: string, withTests = false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full, withTests));
    else if (name.endsWith('.ts') && (withTests || !/\.(test|bench)\.ts$/.test(name))) out.push(full);
  }
  return out;
}

function importsOf(source: string): string[] {
  const specs: string[] = [];
  const re =
    /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) specs.push((m[1] ?? m[2])!);
  return specs;
}

function subsystemOf(file: string): string | null {
  const rel = relative(RUNTIME, file).split(sep);
  return rel.length > 1 ? rel[0]! : null; // null: runtime/index.ts, the public face of the whole runtime
}

/** The subsystem an import resolves into: `../scheduler` and `../scheduler/index.ts` are both "scheduler". */
function subsystemOfTarget(target: string): string | null {
  const rel = relative(RUNTIME, target).split(sep);
  if (rel.length > 1) return rel[0]!;
  return rel[0] === 'index' || rel[0] === 'index.ts' ? null : rel[0]!;
}

const files = sourceFiles(RUNTIME);

/** Returns one message per forbidden import in `source` (the file at absolute path `file`). */
function importViolations(file: string, source: string): string[] {
  const violations: string[] = [];
  const from = subsystemOf(file);
  const where = relative(RUNTIME, file);
  for (const spec of importsOf(source)) {
    if (!spec.startsWith('.')) {
      const pkg = spec.startsWith('@')
        ? spec.split('/').slice(0, 2).join('/')
        : spec.split('/')[0]!;
      if (!ALLOWED_PACKAGES.has(pkg))
        violations.push(`${where}: imports package "${spec}" (runtime must stay pure)`);
      continue;
    }
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(RUNTIME + sep)) {
      violations.push(`${where}: imports "${spec}" from outside runtime/`);
      continue;
    }
    const to = subsystemOfTarget(target);
    if (from === null || to === null || from === to) continue;
    const allowed = ALLOWED[from] ?? ['kernel', 'api'];
    if (!allowed.includes(to)) violations.push(`${where}: ${from} -> ${to} is a forbidden edge`);
    const rest = relative(join(RUNTIME, to), target).replace(/\.ts$/, '');
    if (rest !== '' && rest !== 'index') {
      violations.push(
        `${where}: imports ${to}/${rest}; go through ${to}/index.ts, its public face`,
      );
    }
  }
  return violations;
}

describe('runtime import graph', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('crosses subsystem boundaries only along allowed edges, and only through index.ts', () => {
    const violations = files.flatMap((file) => importViolations(file, readFileSync(file, 'utf8')));
    expect(violations).toEqual([]);
  });

  // The checker itself must be able to fail: feed it imports the book forbids.
  it.each([
    [
      'scheduler/x.ts',
      "import { put } from '../etcd/index.ts';",
      'scheduler -> etcd is a forbidden edge',
    ],
    [
      'controllers/x.ts',
      "import { bind } from '../scheduler';",
      'controllers -> scheduler is a forbidden edge',
    ],
    [
      'apiserver/x.ts',
      "import { MvccStore } from '../etcd/mvcc/store';",
      'go through etcd/index.ts',
    ],
    ['kernel/x.ts', "import { readFileSync } from 'node:fs';", 'imports package "node:fs"'],
    ['raft/x.ts', "export * from '../../site/lib/x';", 'from outside runtime/'],
  ])('rejects %s importing what it must not', (path, source, message) => {
    const violations = importViolations(join(RUNTIME, path), source);
    expect(violations.join('\n')).toContain(message);
  });

  it('accepts imports along allowed edges through index.ts', () => {
    const source =
      "import type { Pod } from '../api/index.ts';\nimport { Kernel } from '../kernel';";
    expect(importViolations(join(RUNTIME, 'scheduler/x.ts'), source)).toEqual([]);
  });
});

// Labs plug into the runtime (labs/<slug>/scenario.ts fills ClusterOptions.plugins), never the
// reverse: no runtime file, tests included, imports labs/. A lab's own tests live in its folder.
const LABS = resolve(RUNTIME, '..', 'labs');

function labImports(file: string, source: string): string[] {
  return importsOf(source)
    .filter((spec) => spec.startsWith('.') && resolve(dirname(file), spec).startsWith(LABS + sep))
    .map((spec) => `${relative(RUNTIME, file)}: imports "${spec}" (labs/ plugs into the runtime, not the reverse)`);
}

describe('runtime and labs', () => {
  it('no runtime source or test imports labs/', () => {
    const all = sourceFiles(RUNTIME, true);
    expect(all.some((f) => f.endsWith('.test.ts'))).toBe(true);
    expect(all.flatMap((file) => labImports(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it.each([
    ['cluster/x.test.ts', "import * as solution from '../../labs/replicaset-reconcile/solution.ts';"],
    ['controllers/replicaset/x.ts', "import scenario from '../../../labs/scheduler-scoring/scenario.ts';"],
    ['x.test.ts', "const m = await import('../labs/lab-scenario.ts');"],
  ])('rejects %s importing a lab', (path, source) => {
    expect(labImports(join(RUNTIME, path), source).join('\n')).toContain('labs/ plugs into the runtime, not the reverse');
  });
});

describe('runtime determinism', () => {
  const forbidden: [RegExp, string][] = [
    [/\bMath\.random\b/, 'Math.random (use the kernel RNG)'],
    [/\bDate\.now\b|\bnew Date\(/, 'the real clock (use the kernel clock)'],
    [/\bperformance\.now\b/, 'performance.now (use the kernel clock)'],
    [
      /\b(setTimeout|setInterval|setImmediate|queueMicrotask)\s*\(/,
      'real timers (use kernel timers)',
    ],
    [/(?<![\w.])(window|document|localStorage|sessionStorage|indexedDB|navigator)\.\w/, 'the DOM'],
    [
      /(?<![\w.'"/])(process\.(env|argv|exit|cwd|nextTick|hrtime|memoryUsage|platform|stdout|stderr)\b|Buffer\.|require\()/,
      'Node built-ins',
    ],
    [/from\s+['"]node:/, 'Node built-in modules'],
  ];

  function nondeterminism(file: string, source: string): string[] {
    const hits: string[] = [];
    source.split('\n').forEach((line, i) => {
      if (/^\s*(\*|\/\*)/.test(line)) return; // a block comment line
      const code = line.replace(/\/\/.*$/, '');
      for (const [re, what] of forbidden) {
        if (re.test(code)) hits.push(`${relative(RUNTIME, file)}:${i + 1}: ${what}`);
      }
    });
    return hits;
  }

  it('never reads real time or randomness, and uses no DOM or Node built-ins', () => {
    expect(files.flatMap((f) => nondeterminism(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it.each([
    ['const x = Math.random();', 'Math.random'],
    ['const t = Date.now();', 'the real clock'],
    ['setTimeout(() => tick(), 10);', 'real timers'],
    ['document.title = "x";', 'the DOM'],
    ['const env = process.env.X;', 'Node built-ins'],
  ])('flags %s', (source, what) => {
    expect(nondeterminism(join(RUNTIME, 'kernel/x.ts'), source).join()).toContain(what);
  });
});
