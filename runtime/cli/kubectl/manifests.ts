// Reading `-f` manifests: multi-document YAML (block or flow style) or JSON, `kind: List`
// expanded into its items, with kubectl's error texts for unreadable input.
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../api/index.ts';
import type { Ctx } from './context.ts';
import { flagStrings } from './args.ts';

export type ManifestResult = { ok: true; objects: KubeObject[] } | { ok: false; error: string };

/** Objects read from -f, each with its source as kubectl names it in errors ("STDIN" or the path). */
export type FilenameManifests = { ok: true; objects: KubeObject[]; sources: string[] } | { ok: false; error: string };

export function parseManifests(text: string, source: string): ManifestResult {
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0]!;
      const line = e.linePos?.[0]?.line ?? 0;
      return {
        ok: false,
        error: `error: error parsing ${source}: error converting YAML to JSON: yaml: line ${line}: ${e.message.split('\n')[0]}`,
      };
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) {
      return {
        ok: false,
        error: `error: error parsing ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type map[string]interface {}`,
      };
    }
    const obj = value as Record<string, unknown>;
    if (obj.kind === 'List' && Array.isArray(obj.items)) {
      objects.push(...(obj.items as KubeObject[]));
      continue;
    }
    if (typeof obj.kind !== 'string' || obj.kind === '') {
      return {
        ok: false,
        error: `error: unable to decode "${source}": Object 'Kind' is missing in '${JSON.stringify(obj)}'`,
      };
    }
    if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') {
      return {
        ok: false,
        error: `error: unable to decode "${source}": Object 'apiVersion' is missing in '${JSON.stringify(obj)}'`,
      };
    }
    obj.metadata ??= {};
    objects.push(obj as unknown as KubeObject);
  }
  return { ok: true, objects };
}

/** All objects named by -f flags ("-" is stdin), or an error text. */
export function readFilenameFlags(ctx: Ctx): FilenameManifests {
  const objects: KubeObject[] = [];
  const sources: string[] = [];
  for (const name of flagStrings(ctx.args, 'filename')) {
    const text = name === '-' ? ctx.io.stdin : ctx.io.files?.[name];
    if (text === undefined)
      return {
        ok: false,
        error:
          name === '-'
            ? 'error: no objects passed to apply'
            : `error: the path "${name}" does not exist`,
      };
    const parsed = parseManifests(text, name === '-' ? 'STDIN' : `"${name}"`);
    if (!parsed.ok) return parsed;
    objects.push(...parsed.objects);
    for (const _ of parsed.objects) sources.push(name === '-' ? 'STDIN' : name);
  }
  if (objects.length === 0) return { ok: false, error: 'error: no objects passed to apply' };
  return { ok: true, objects, sources };
}
