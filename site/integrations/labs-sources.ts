// Build-time reading of labs/ for the labs integration: which labs exist, what each learner
// module exports (lab.mdx frontmatter), and which runtime sources the learner's types come from.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

/** The worker-side registry the generated `@lab/submission` modules read from. */
const REGISTRY_PATH = fileURLToPath(new URL('../lib/grading/worker/submission-registry.ts', import.meta.url));

export interface LabSource {
  slug: string;
  /** Absolute path of labs/<slug>. */
  dir: string;
  exports: string[];
}

function readFrontmatter(mdxPath: string): Record<string, unknown> {
  const match = readFileSync(mdxPath, 'utf8').match(/^---\r?\n([\s\S]*?)\r?\n---/);
  if (!match) throw new Error(`${mdxPath}: lab.mdx must start with a --- frontmatter block`);
  return (parseYaml(match[1]!) ?? {}) as Record<string, unknown>;
}

/** Every labs/<slug>/ folder with a lab.mdx, sorted by slug. */
export function listLabs(root: string): LabSource[] {
  const labsDir = join(root, 'labs');
  if (!existsSync(labsDir)) return [];
  return readdirSync(labsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(labsDir, entry.name, 'lab.mdx')))
    .map((entry) => {
      const dir = join(labsDir, entry.name);
      const exports = readFrontmatter(join(dir, 'lab.mdx')).exports;
      if (!Array.isArray(exports) || exports.some((name) => typeof name !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(name))) {
        throw new Error(`labs/${entry.name}/lab.mdx: frontmatter "exports" must list the learner module's export names`);
      }
      return { slug: entry.name, dir, exports: exports as string[] };
    })
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/** The `@lab/submission` module of one lab: its exports, read from the worker's registry. */
export function submissionModuleCode(root: string, slug: string): string {
  const lab = listLabs(root).find((candidate) => candidate.slug === slug);
  if (!lab) throw new Error(`@lab/submission imported from labs/${slug}/, which has no lab.mdx`);
  const lines = [`import { getSubmissionExports } from ${JSON.stringify(REGISTRY_PATH)};`, 'const submission = getSubmissionExports();'];
  for (const name of lab.exports) lines.push(`export const ${name} = submission[${JSON.stringify(name)}];`);
  return lines.join('\n');
}

const IMPORT_PATTERN = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

/** Resolves a relative or @runtime/ specifier to an absolute .ts path, if it exists. */
function resolveSpecifier(root: string, fromFile: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('@runtime/')) base = join(root, 'runtime', specifier.slice('@runtime/'.length));
  else if (specifier === '@runtime') base = join(root, 'runtime/index.ts');
  else if (specifier.startsWith('.')) base = resolve(dirname(fromFile), specifier);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The runtime sources reachable from the labs' starters (type imports), keyed by path relative
 * to the project root ("runtime/api/index.ts"). Monaco loads them as extra libs so completion,
 * hover docs and type errors work in the editor.
 */
export function collectTypeFiles(root: string): Record<string, string> {
  const pending = listLabs(root).flatMap((lab) => ['starter.ts', 'solution.ts'].map((file) => join(lab.dir, file)));
  const seen = new Set<string>();
  const files: Record<string, string> = {};
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const rel = relative(root, file);
    if (rel.startsWith('runtime/')) files[rel] = text;
    for (const match of text.matchAll(IMPORT_PATTERN)) {
      const target = resolveSpecifier(root, file, match[1]!);
      if (target && relative(root, target).startsWith('runtime/')) pending.push(target);
    }
  }
  return files;
}
