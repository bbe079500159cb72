// `-o` formats of kubectl get (and of apply/create -o): wide tables, yaml, json, name, jsonpath,
// custom-columns, with --sort-by. A single object prints as itself; several as a v1 List, as
// kubectl get does.
import type { KubeObject } from '../../../api/index.ts';
import { toJSON } from './json-emit.ts';
import {
  executeJSONPath,
  JSONPathError,
  parseJSONPath,
  relaxedJSONPathExpression,
  findResults,
  parseSteps,
  resultText,
} from './jsonpath.ts';
import { alignTabs, GET_TABWRITER } from './tabwriter.ts';
import { toYAML } from './yaml-emit.ts';

export type OutputFormat =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string }
  | { kind: 'custom-columns'; spec: string };

const SUPPORTED =
  'custom-columns, custom-columns-file, go-template, go-template-file, json, jsonpath, jsonpath-as-json, jsonpath-file, name, template, templatefile, wide, yaml';

/** Parses the -o value, or returns kubectl's "unable to match a printer" error. */
export function parseOutputFormat(
  value: string | undefined,
): { ok: true; format: OutputFormat } | { ok: false; error: string } {
  if (value === undefined || value === '')
    return { ok: true, format: { kind: 'table', wide: false } };
  if (value === 'wide') return { ok: true, format: { kind: 'table', wide: true } };
  if (value === 'yaml' || value === 'json' || value === 'name')
    return { ok: true, format: { kind: value } };
  const eq = value.indexOf('=');
  const [name, arg] = eq < 0 ? [value, ''] : [value.slice(0, eq), value.slice(eq + 1)];
  if (name === 'jsonpath') {
    if (arg === '')
      return { ok: false, error: 'error: template format specified but no template given' };
    return { ok: true, format: { kind: 'jsonpath', template: arg } };
  }
  if (name === 'custom-columns') {
    if (arg === '')
      return {
        ok: false,
        error: 'error: custom-columns format specified but no custom columns given',
      };
    return { ok: true, format: { kind: 'custom-columns', spec: arg } };
  }
  return {
    ok: false,
    error: `error: unable to match a printer suitable for the output format "${value}", allowed formats are: ${SUPPORTED}`,
  };
}

/** What -o yaml/json/jsonpath print for many objects: a v1 List with an empty resourceVersion. */
export function asList(objects: KubeObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } };
}

/**
 * printStructured with a template's or a column spec's error (-o jsonpath=..., -o custom-columns=...)
 * as a value: kubectl prints it after "error: ".
 */
export function tryPrintStructured(
  format: OutputFormat,
  objects: KubeObject[],
  single: boolean,
  namePrefix: (o: KubeObject) => string,
): { ok: true; text: string } | { ok: false; error: string } {
  try {
    return { ok: true, text: printStructured(format, objects, single, namePrefix) };
  } catch (e) {
    if (e instanceof JSONPathError) return { ok: false, error: e.message };
    throw e;
  }
}

/** Prints objects in a structured format; `single` prints the object itself rather than a List. */
export function printStructured(
  format: OutputFormat,
  objects: KubeObject[],
  single: boolean,
  namePrefix: (o: KubeObject) => string,
): string {
  const data = single && objects.length === 1 ? objects[0] : asList(objects);
  switch (format.kind) {
    case 'yaml':
      return toYAML(data);
    case 'json':
      return toJSON(data);
    case 'name':
      return objects.map((o) => `${namePrefix(o)}/${o.metadata.name ?? ''}\n`).join('');
    case 'jsonpath':
      return runTemplate(format.template, data);
    case 'custom-columns':
      return printCustomColumns(format.spec, objects);
    case 'table':
      throw new Error('invariant: tables are printed by printTables');
  }
}

/** -o jsonpath with kubectl's error texts (cli-runtime printers/jsonpath.go). */
function runTemplate(template: string, data: unknown): string {
  let parsed;
  try {
    parsed = parseJSONPath(template);
  } catch (e) {
    throw new JSONPathError(`error parsing jsonpath ${template}, ${(e as Error).message}`);
  }
  try {
    return executeJSONPath(parsed, data);
  } catch (e) {
    throw new JSONPathError(
      `error executing jsonpath "${template}": Error executing template: ${(e as Error).message}. Printing more information for debugging the template:\n` +
        `\ttemplate was:\n\t\t${template}\n\tobject given to jsonpath engine was:\n\t\t${JSON.stringify(data)}\n`,
    );
  }
}

/**
 * -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName: one column per spec, missing values
 * as "<none>", several results comma-joined (cli-runtime printers/customcolumn.go).
 */
export function printCustomColumns(spec: string, objects: KubeObject[]): string {
  const columns = spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon < 0)
      throw new JSONPathError(
        `unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`,
      );
    const path = relaxedJSONPathExpression(part.slice(colon + 1));
    return { header: part.slice(0, colon), steps: parseSteps(path.slice(1, -1)) };
  });
  const lines = [columns.map((c) => c.header).join('\t')];
  for (const obj of objects) {
    lines.push(
      columns
        .map((c) => {
          const values = findResults(c.steps, obj, true);
          return values.length === 0 ? '<none>' : values.map(resultText).join(',');
        })
        .join('\t'),
    );
  }
  return alignTabs(lines.join('\n') + '\n', GET_TABWRITER);
}
