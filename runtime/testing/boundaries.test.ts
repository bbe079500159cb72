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
  cluster: [
    'kernel', 'raft', 'etcd', 'api', 'apiserver', 'client', 'scheduler', 'controllers',
    'kubelet', 'cri', 'network', 'cli',
  ],
  testing: ['kernel', 'raft', 'etcd', 'api', 'apiserver', 'client', 'cluster', 'cli'],
};

/** Packages the runtime may import from npm (pure, browser-safe). */
const ALLOWED_PACKAGES = new Set(['yaml']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith('.ts') && !/\.(test|bench)\.ts$/.test(name)) out.push(full);
  }
  return out;
}

function importsOf(source: string): string[] {
  const specs: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) specs.push((m[1] ?? m[2])!);
  return specs;
}

function subsystemOf(file: string): string | null {
  const rel = relative(RUNTIME, file).split(sep);
  return rel.length > 1 ? rel[0]! : null; // null: runtime/index.ts, the public face of the whole runtime
}

const files = sourceFiles(RUNTIME);

describe('runtime import graph', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('crosses subsystem boundaries only along allowed edges, and only through index.ts', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = subsystemOf(file);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const where = relative(RUNTIME, file);
        if (!spec.startsWith('.')) {
          const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
          if (!ALLOWED_PACKAGES.has(pkg)) violations.push(`${where}: imports package "${spec}" (runtime must stay pure)`);
          continue;
        }
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(RUNTIME + sep)) {
          violations.push(`${where}: imports "${spec}" from outside runtime/`);
          continue;
        }
        const to = subsystemOf(target.endsWith('.ts') ? target : target + '.ts');
        if (from === null || to === null || from === to) continue;
        const allowed = ALLOWED[from] ?? ['kernel', 'api'];
        if (!allowed.includes(to)) violations.push(`${where}: ${from} -> ${to} is a forbidden edge`);
        const rest = relative(join(RUNTIME, to), target).replace(/\.ts$/, '');
        if (rest !== '' && rest !== 'index') {
          violations.push(`${where}: imports ${to}/${rest}; go through ${to}/index.ts, its public face`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});

describe('runtime determinism', () => {
  const forbidden: [RegExp, string][] = [
    [/\bMath\.random\b/, 'Math.random (use the kernel RNG)'],
    [/\bDate\.now\b|\bnew Date\(/, 'the real clock (use the kernel clock)'],
    [/\bperformance\.now\b/, 'performance.now (use the kernel clock)'],
    [/\b(setTimeout|setInterval|setImmediate|queueMicrotask)\s*\(/, 'real timers (use kernel timers)'],
    [/\b(window|document|localStorage|indexedDB)\./, 'the DOM'],
    [/\bprocess\.|\bBuffer\.|\brequire\(/, 'Node built-ins'],
    [/from\s+['"]node:/, 'Node built-in modules'],
  ];

  it('never reads real time or randomness, and uses no DOM or Node built-ins', () => {
    const hits: string[] = [];
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        for (const [re, what] of forbidden) {
          if (re.test(code)) hits.push(`${relative(RUNTIME, file)}:${i + 1}: ${what}`);
        }
      });
    }
    expect(hits).toEqual([]);
  });
});
