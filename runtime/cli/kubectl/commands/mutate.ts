// Commands that read objects, change them and write them back: delete, scale, label, taint,
// cordon/uncordon, set image, patch. Each prints kubectl's result line per object.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/{delete,scale,label,taint,drain,set,patch}/*.go
import { parseDocument } from 'yaml';
import type { Container, Deployment, KubeObject, Node, Taint } from '../../../api/index.ts';
import {
  applyJsonPatch,
  createMergePatch,
  createTwoWayMergePatch,
  patchStructForKind,
  strategicMergePatch,
} from '../../../api/index.ts';
import { flagBool, flagInt, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import { deletedLine, dryRunSuffix, noResourcesFound, operationLine, type Operation } from '../errors.ts';
import { parseOutputFormat, tryPrintStructured } from '../printers/output.ts';
import { typePrefix } from '../resources.ts';
import { fetchTargets, type TargetGroup } from './targets.ts';

const dryRun = (ctx: Ctx): boolean => flagString(ctx.args, 'dry-run') === 'client';

export type Edit =
  { ok: true; object: KubeObject; op: Operation; changed: boolean } | { ok: false; error: string };

/**
 * How a command sends its edit, as upstream does: label's JSON merge patch
 * (jsonpatch.CreateMergePatch), taint / cordon / set image's two-way strategic merge patch
 * (strategicpatch.CreateTwoWayMergePatch), scale's merge patch of the scale subresource
 * (scale.go ScaleSimple). Patches carry no resourceVersion, so a concurrent writer never makes
 * them fail with a Conflict.
 */
export type PatchStyle = 'merge' | 'strategic' | 'scale';

function editPatch(
  style: PatchStyle,
  before: KubeObject,
  after: KubeObject,
  kind: string,
): { ok: true; body: unknown; patchType: 'merge' | 'strategic'; subresource?: string } | { ok: false; error: string } {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  if (style === 'scale') {
    const replicas = (after as unknown as { spec: { replicas?: number } }).spec.replicas;
    return { ok: true, body: { spec: { replicas } }, patchType: 'merge', subresource: 'scale' };
  }
  if (style === 'merge') return { ok: true, body: createMergePatch(a, b), patchType: 'merge' };
  const diff = createTwoWayMergePatch(a, b, patchStructForKind(kind));
  return diff.ok ? { ok: true, body: diff.patch, patchType: 'strategic' } : { ok: false, error: diff.error };
}

/** Fetches the targets, applies edit to each, patches changed objects, prints "<type>/<name> <op>". */
export function editEach(
  ctx: Ctx,
  missingType: string,
  style: PatchStyle,
  edit: (obj: KubeObject, group: TargetGroup) => Edit,
  done: () => void,
): void {
  fetchTargets(ctx, { missingTypeError: missingType }, (groups) => {
    if (!groups) return done();
    const items = groups.flatMap((g) => g.objects.map((o) => ({ g, o })));
    if (items.length === 0 && !ctx.failed) ctx.stderr += noResourcesFound(ctx.namespace);
    forEachSeq(
      items,
      ({ g, o }, next) => {
        const result = edit(JSON.parse(JSON.stringify(o)) as KubeObject, g);
        if (!result.ok) {
          ctx.error(result.error);
          return next();
        }
        const line = operationLine(typePrefix(g.info), o.metadata.name ?? '', result.op, ctx.dryRunPrint);
        if (!result.changed || dryRun(ctx)) {
          ctx.out(line);
          return next();
        }
        const patch = editPatch(style, o, result.object, g.info.kind);
        if (!patch.ok) {
          ctx.error(patch.error);
          return next();
        }
        const request = {
          verb: 'patch' as const,
          resource: gvr(g.info),
          namespace: ctx.namespaceFor(g.info, o),
          name: o.metadata.name,
          body: patch.body,
          query: { patchType: patch.patchType },
          ...(patch.subresource ? { subresource: patch.subresource } : {}),
        };
        ctx.request(request, (res) => {
          if (res.ok) ctx.out(line);
          else ctx.statusError(res.status);
          next();
        });
      },
      done,
    );
  });
}

// ---------------------------------------------------------------- delete

export function runDelete(ctx: Ctx, done: () => void): void {
  const all = flagBool(ctx.args, 'all');
  const selector = flagString(ctx.args, 'selector');
  const p = ctx.args.positionals;
  const typeOnly = p.length === 1 && !p[0]!.includes('/');
  if (
    !ctx.args.flags.has('filename') &&
    typeOnly &&
    !all &&
    selector === undefined &&
    flagString(ctx.args, 'field-selector') === undefined
  ) {
    ctx.error(`resource(s) were provided, but no name was specified`);
    return done();
  }
  const grace = flagInt(ctx.args, 'grace-period');
  const force = flagBool(ctx.args, 'force');
  if (force && (grace === undefined || grace === 0)) {
    ctx.stderr +=
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
  }
  // delete.go Complete: --now is a grace period of 1; --grace-period=0 without --force becomes 1;
  // --force alone is 0, which prints "force deleted".
  const gracePeriodSeconds = flagBool(ctx.args, 'now')
    ? 1
    : grace === 0 && !force
      ? 1
      : force && grace === undefined
        ? 0
        : grace;
  // --all, -l and --field-selector ignore NotFound unless --ignore-not-found was given.
  const ignoreNotFound = ctx.args.flags.has('ignore-not-found')
    ? flagBool(ctx.args, 'ignore-not-found')
    : all || selector !== undefined || flagString(ctx.args, 'field-selector') !== undefined;
  // RequireObject(false): named targets and -f manifests are deleted without reading them first, so
  // a refusal is about "delete" (delete.go Complete builds with ResourceTypeOrNameArgs(false,
  // args...).RequireObject(false)); only selectors and --all list.
  fetchTargets(
    ctx,
    {
      missingTypeError:
        "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
      requireObject: false,
    },
    (groups) => {
      if (!groups) return done();
      const items = groups.flatMap((g) => g.objects.map((o) => ({ g, o })));
      if (items.length === 0 && !ctx.failed)
        ctx.stderr += noResourcesFound(ctx.allNamespaces ? undefined : ctx.namespace);
      forEachSeq(
        items,
        ({ g, o }, next) => {
          const line = deletedLine(typePrefix(g.info), o.metadata.name ?? '', ctx.dryRunPrint, gracePeriodSeconds === 0);
          if (dryRun(ctx)) {
            ctx.out(line);
            return next();
          }
          const query = gracePeriodSeconds === undefined ? undefined : { gracePeriodSeconds };
          ctx.request(
            {
              verb: 'delete',
              resource: gvr(g.info),
              namespace: ctx.namespaceFor(g.info, o),
              name: o.metadata.name,
              query,
            },
            (res) => {
              if (res.ok) ctx.out(line);
              else if (!(ignoreNotFound && res.status.reason === 'NotFound')) ctx.statusError(res.status);
              next();
            },
          );
        },
        done,
      );
    },
  );
}

// ---------------------------------------------------------------- scale

export function runScale(ctx: Ctx, done: () => void): void {
  const replicas = flagInt(ctx.args, 'replicas');
  if (replicas === undefined) {
    ctx.error('required flag(s) "replicas" not set');
    return done();
  }
  if (replicas < 0) {
    ctx.error(
      'The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0',
    );
    return done();
  }
  const current = flagInt(ctx.args, 'current-replicas');
  editEach(
    ctx,
    "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
    'scale',
    (obj, g) => {
      if (!['Deployment', 'ReplicaSet', 'StatefulSet'].includes(g.info.kind)) {
        return {
          ok: false,
          error: `no objects passed to scale ${typePrefix(g.info)} "${obj.metadata.name ?? ''}" is not scalable`,
        };
      }
      const spec = (obj as unknown as { spec: { replicas?: number } }).spec;
      if (current !== undefined && (spec.replicas ?? 1) !== current) {
        return {
          ok: false,
          error: `Expected replicas to be ${current}, was ${spec.replicas ?? 1}`,
        };
      }
      spec.replicas = replicas;
      return { ok: true, object: obj, op: 'scaled', changed: true };
    },
    done,
  );
}

// ---------------------------------------------------------------- label

export interface LabelChanges {
  set: Record<string, string>;
  remove: string[];
}

/** Splits "a=b c- d=e" after the resource arguments (label.go parseLabels). */
export function splitLabelArgs(
  args: readonly string[],
  noun: 'label' | 'annotation' = 'label',
): { resources: string[]; changes: LabelChanges } | { error: string } {
  const changes: LabelChanges = { set: {}, remove: [] };
  const resources: string[] = [];
  for (const arg of args) {
    if (arg.includes('=')) {
      const [k, ...v] = arg.split('=');
      changes.set[k!] = v.join('=');
    } else if (arg.endsWith('-') && resources.length > 0) changes.remove.push(arg.slice(0, -1));
    else resources.push(arg);
  }
  if (Object.keys(changes.set).length === 0 && changes.remove.length === 0)
    return { error: `at least one ${noun} update is required` };
  return { resources, changes };
}

/**
 * label and annotate: splits the KEY=VALUE / KEY- arguments from the resources (a usage error
 * first, as their Validate does), then edits each object's map, sent as a JSON merge patch.
 */
export function editKeyValues(
  ctx: Ctx,
  noun: 'label' | 'annotation',
  done: () => void,
  edit: (obj: KubeObject, changes: LabelChanges, overwrite: boolean) => Edit,
  validate?: (changes: LabelChanges) => string | undefined,
): void {
  const split = splitLabelArgs(ctx.args.positionals, noun);
  if ('error' in split) {
    ctx.error(split.error);
    return done();
  }
  const invalid = validate?.(split.changes);
  if (invalid !== undefined) {
    ctx.error(invalid);
    return done();
  }
  ctx.args.positionals = split.resources;
  const overwrite = flagBool(ctx.args, 'overwrite');
  editEach(
    ctx,
    'one or more resources must be specified as <resource> <name> or <resource>/<name>',
    'merge',
    (obj) => edit(obj, split.changes, overwrite),
    done,
  );
}

export function runLabel(ctx: Ctx, done: () => void): void {
  editKeyValues(
    ctx,
    'label',
    done,
    (obj, changes, overwrite) => {
      const labels = { ...(obj.metadata.labels ?? {}) };
      const before = JSON.stringify(labels);
      for (const [k, v] of Object.entries(changes.set)) {
        if (!overwrite && labels[k] !== undefined && labels[k] !== v) {
          return {
            ok: false,
            error: `'${k}' already has a value (${labels[k]}), and --overwrite is false`,
          };
        }
        labels[k] = v;
      }
      for (const k of changes.remove) delete labels[k];
      obj.metadata.labels = labels;
      const changed = JSON.stringify(labels) !== before;
      const op: Operation = !changed
        ? 'not labeled'
        : Object.keys(changes.set).length === 0
          ? 'unlabeled'
          : 'labeled';
      return { ok: true, object: obj, op, changed };
    },
  );
}

// ---------------------------------------------------------------- cordon / uncordon

export function runCordon(ctx: Ctx, unschedulable: boolean, done: () => void): void {
  ctx.args.positionals = ['nodes', ...ctx.args.positionals];
  editEach(
    ctx,
    'USAGE: cordon NODE [flags]',
    'strategic',
    (obj) => {
      const node = obj as Node;
      const already = (node.spec?.unschedulable ?? false) === unschedulable;
      node.spec = { ...(node.spec ?? {}), unschedulable };
      if (!unschedulable) delete node.spec.unschedulable;
      const op: Operation = unschedulable
        ? already
          ? 'already cordoned'
          : 'cordoned'
        : already
          ? 'already uncordoned'
          : 'uncordoned';
      return { ok: true, object: node, op, changed: !already };
    },
    done,
  );
}

// ---------------------------------------------------------------- taint

type TaintChange = { add: Taint[]; remove: { key: string; effect?: string }[] };

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** taint.go parseTaints: key=value:Effect, key:Effect, key:Effect-, key-. */
export function parseTaintArgs(specs: readonly string[]): TaintChange | { error: string } {
  const change: TaintChange = { add: [], remove: [] };
  for (const spec of specs) {
    if (spec.endsWith('-')) {
      const [key, effect] = spec.slice(0, -1).split(':');
      change.remove.push({ key: key!, effect });
      continue;
    }
    const colon = spec.lastIndexOf(':');
    if (colon < 0) return { error: `invalid taint spec: ${spec}, unknown taint effect` };
    const effect = spec.slice(colon + 1);
    if (!EFFECTS.includes(effect))
      return { error: `invalid taint effect: ${effect}, unsupported taint effect` };
    const [key, value] = spec.slice(0, colon).split('=');
    change.add.push(
      value === undefined
        ? { key: key!, effect: effect as Taint['effect'] }
        : { key: key!, value, effect: effect as Taint['effect'] },
    );
  }
  return change;
}

export function runTaint(ctx: Ctx, done: () => void): void {
  const [typed, ...rest] = ctx.args.positionals;
  const isTaint = (a: string): boolean => a.includes(':') || a.endsWith('-') || a.includes('=');
  const names = rest.filter((a) => !isTaint(a));
  const parsed = parseTaintArgs(rest.filter(isTaint));
  if ('error' in parsed) {
    ctx.error(parsed.error);
    return done();
  }
  if (parsed.add.length === 0 && parsed.remove.length === 0) {
    ctx.error('at least one taint update is required');
    return done();
  }
  ctx.args.positionals =
    typed === undefined ? [] : typed.includes('/') ? [typed] : [typed, ...names];
  const overwrite = flagBool(ctx.args, 'overwrite');
  editEach(
    ctx,
    "at least one resource name must be specified since 'all' parameter is not set",
    'strategic',
    (obj) => {
      const node = obj as Node;
      let taints = [...(node.spec?.taints ?? [])];
      for (const r of parsed.remove) {
        const kept = taints.filter(
          (t) => !(t.key === r.key && (r.effect === undefined || t.effect === r.effect)),
        );
        if (kept.length === taints.length)
          return {
            ok: false,
            error: `taint "${r.effect ? `${r.key}:${r.effect}` : r.key}" not found`,
          };
        taints = kept;
      }
      for (const t of parsed.add) {
        const existing = taints.findIndex((x) => x.key === t.key && x.effect === t.effect);
        if (existing >= 0 && !overwrite) {
          return {
            ok: false,
            error: `node ${node.metadata.name ?? ''} already has ${t.key} taint(s) with same effect(s) and --overwrite is false`,
          };
        }
        if (existing >= 0) taints[existing] = t;
        else taints.push(t);
      }
      node.spec = { ...(node.spec ?? {}), taints };
      if (taints.length === 0) delete node.spec.taints;
      const op: Operation = parsed.add.length > 0 ? 'tainted' : 'untainted';
      return { ok: true, object: node, op, changed: true };
    },
    done,
  );
}

// ---------------------------------------------------------------- set image

export function runSetImage(ctx: Ctx, done: () => void): void {
  const pairs = ctx.args.positionals.filter((a) => a.includes('='));
  ctx.args.positionals = ctx.args.positionals.filter((a) => !a.includes('='));
  if (pairs.length === 0) {
    ctx.error('at least one image update is required');
    return done();
  }
  editEach(
    ctx,
    'one or more resources must be specified as <resource> <name> or <resource>/<name>',
    'strategic',
    (obj) => {
      const template = (obj as Deployment).spec?.template;
      if (!template) return { ok: false, error: `unable to find container named in ${obj.kind}` };
      const containers: Container[] = [
        ...(template.spec.initContainers ?? []),
        ...template.spec.containers,
      ];
      for (const pair of pairs) {
        const [name, image] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
        const targets = name === '*' ? containers : containers.filter((c) => c.name === name);
        if (targets.length === 0)
          return { ok: false, error: `unable to find container named "${name}"` };
        for (const c of targets) c.image = image;
      }
      return { ok: true, object: obj, op: 'image updated', changed: true };
    },
    done,
  );
}

// ---------------------------------------------------------------- patch

/** patch.go patchTypes, sorted as sets.StringKeySet(...).List() prints them. */
const PATCH_TYPE_NAMES = ['json', 'merge', 'strategic'] as const;
type PatchTypeName = (typeof PATCH_TYPE_NAMES)[number];

/** The -p text as JSON (yaml.ToJSON: YAML flow style works too), or patch.go's "unable to parse" error. */
export function parsePatchText(text: string): { ok: true; body: unknown } | { ok: false; error: string } {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = (e.linePos?.[0]?.line ?? 1) - 1;
    return { ok: false, error: `unable to parse ${JSON.stringify(text)}: yaml: line ${line}: ${e.message.split('\n')[0]}` };
  }
  return { ok: true, body: doc.toJS() as unknown };
}

/** The patch.go checks made before any request: the patch text, its type, the --patch-file rules. */
function patchInput(ctx: Ctx): { ok: true; text: string; type: PatchTypeName } | { ok: false; error: string } {
  const inline = flagString(ctx.args, 'patch');
  const file = flagString(ctx.args, 'patch-file');
  if (!inline && !file) return { ok: false, error: 'must specify --patch or --patch-file containing the contents of the patch' };
  if (inline && file) return { ok: false, error: 'cannot specify --patch and --patch-file together' };
  const type = (flagString(ctx.args, 'type') ?? 'strategic').toLowerCase();
  if (!(PATCH_TYPE_NAMES as readonly string[]).includes(type)) {
    return { ok: false, error: `--type must be one of [${PATCH_TYPE_NAMES.join(' ')}], not ${JSON.stringify(flagString(ctx.args, 'type'))}` };
  }
  if (inline) return { ok: true, text: inline, type: type as PatchTypeName };
  const content = ctx.io.files?.[file!];
  if (content === undefined) return { ok: false, error: `open ${file!}: no such file or directory` };
  return { ok: true, text: content, type: type as PatchTypeName };
}

/**
 * kubectl patch (patch.go): sends the patch as given to each target, then prints
 * "<type>/<name> patched", or "patched (no change)" when the object came back as it was read.
 * With --dry-run=client the patch is applied here to the object read and nothing is sent.
 */
export function runPatch(ctx: Ctx, done: () => void): void {
  const input = patchInput(ctx);
  if (!input.ok) {
    ctx.error(input.error);
    return done();
  }
  const parsed = parsePatchText(input.text);
  if (!parsed.ok) {
    ctx.error(parsed.error);
    return done();
  }
  fetchTargets(
    ctx,
    { missingTypeError: "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'" },
    (groups) => {
      if (!groups) return done();
      const items = groups.flatMap((g) => g.objects.map((o) => ({ g, o })));
      forEachSeq(items, ({ g, o }, next) => patchOne(ctx, g, o, parsed.body, input.type, next), done);
    },
  );
}

function patchOne(ctx: Ctx, g: TargetGroup, before: KubeObject, body: unknown, type: PatchTypeName, next: () => void): void {
  const name = before.metadata.name ?? '';
  const print = (after: KubeObject): void => {
    const changed = JSON.stringify(after) !== JSON.stringify(before);
    const output = flagString(ctx.args, 'output');
    if (output) {
      const format = parseOutputFormat(output);
      if (!format.ok) ctx.error(format.error);
      else if (format.format.kind !== 'table') {
        const printed = tryPrintStructured(format.format, [after], true, () => typePrefix(g.info));
        if (printed.ok) ctx.out(printed.text);
        else ctx.error(printed.error);
      }
      return;
    }
    ctx.out(`${typePrefix(g.info)}/${name} ${changed ? 'patched' : 'patched (no change)'}${dryRunSuffix(ctx.dryRunPrint)}\n`);
  };
  if (dryRun(ctx)) {
    const local = patchLocally(before, g.info.kind, body, type);
    if (local.ok) print(local.object);
    else ctx.error(local.error);
    return next();
  }
  ctx.request(
    {
      verb: 'patch',
      resource: gvr(g.info),
      namespace: ctx.namespaceFor(g.info, before),
      name,
      body,
      query: { patchType: type },
      ...(flagString(ctx.args, 'subresource') ? { subresource: flagString(ctx.args, 'subresource') } : {}),
    },
    (res) => {
      if (res.ok) print(res.body as KubeObject);
      else ctx.statusError(res.status);
      next();
    },
  );
}

/** --dry-run=client: the patch applied to the object read, as the server would. */
function patchLocally(obj: KubeObject, kind: string, body: unknown, type: PatchTypeName): { ok: true; object: KubeObject } | { ok: false; error: string } {
  const current = obj as unknown as Record<string, unknown>;
  if (type === 'json') {
    const r = applyJsonPatch(current, body);
    return r.ok ? { ok: true, object: r.value as unknown as KubeObject } : { ok: false, error: r.error };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'the patch must be a JSON object' };
  const r = type === 'merge'
    ? { ok: true as const, value: jsonMergePatch(current, body) as Record<string, unknown> }
    : strategicMergePatch(current, body as Record<string, unknown>, patchStructForKind(kind));
  return r.ok ? { ok: true, object: r.value as unknown as KubeObject } : { ok: false, error: r.error };
}

function jsonMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = jsonMergePatch(out[k], v);
  }
  return out;
}
