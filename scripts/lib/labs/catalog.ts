// The labs on disk (Node only): where they are, their metadata and manifests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseLabMeta, type LabMeta } from './frontmatter.ts';
import type { TestManifest } from './manifest.ts';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const LABS_DIR = join(ROOT, 'labs');
export const WORKSPACE_DIR = join(ROOT, 'workspace');
export const RESULTS_CACHE = join(WORKSPACE_DIR, '.results.json');

export interface Lab {
  slug: string;
  dir: string;
  meta: LabMeta;
}

/** Lab folder names (every directory in labs/ holding a lab.mdx), sorted. */
export function labSlugs(): string[] {
  return readdirSync(LABS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(LABS_DIR, e.name, 'lab.mdx')))
    .map((e) => e.name)
    .sort();
}

export function loadLab(slug: string): Lab {
  const dir = join(LABS_DIR, slug);
  if (!existsSync(join(dir, 'lab.mdx'))) {
    throw new Error(`no lab named "${slug}"; labs: ${labSlugs().join(', ')} (see npm run lab -- list)`);
  }
  const parsed = parseLabMeta(readFileSync(join(dir, 'lab.mdx'), 'utf8'), `labs/${slug}/lab.mdx`);
  if ('error' in parsed) throw new Error(parsed.error);
  return { slug, dir, meta: parsed.meta };
}

export function readManifest(lab: Lab): TestManifest {
  const file = join(lab.dir, 'tests.json');
  if (!existsSync(file)) throw new Error(`labs/${lab.slug}/tests.json is missing: run npm run lab -- manifest`);
  return JSON.parse(readFileSync(file, 'utf8')) as TestManifest;
}

export function workspaceFile(slug: string): string {
  return join(WORKSPACE_DIR, `${slug}.ts`);
}
