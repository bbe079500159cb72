// kubectl apply (client-side) and kubectl create -f.
// apply mirrors staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go and patcher.go: GET the live
// object; if absent, create it with the last-applied-configuration annotation; otherwise merge
// the new configuration into the live object (maps merged, lists of named items merged by name,
// fields dropped since the last apply deleted) and PUT it, printing "configured", or print
// "unchanged" when the merge changes nothing.
import type { KubeObject, ResourceInfo, Status } from '../../../api/index.ts';
import { resourceForKind } from '../../../api/index.ts';
import { flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import { operationLine } from '../errors.ts';
import { readFilenameFlags } from '../manifests.ts';
import { compactJSON } from '../printers/json-emit.ts';
import { parseOutputFormat, printStructured } from '../printers/output.ts';
import { typePrefix } from '../resources.ts';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Json = Record<string, unknown>;

export function runApply(ctx: Ctx, done: () => void): void {
  forEachManifest(ctx, 'apply', (obj, info, source, next) => applyOne(ctx, obj, info, source, next), done);
}

export function runCreateFromFiles(ctx: Ctx, done: () => void): void {
  forEachManifest(
    ctx,
    'create',
    (obj, info, source, next) =>
      createObject(
        ctx,
        ctx.args.flags.get('save-config') === true
          ? withLastApplied(obj, lastAppliedText(obj))
          : obj,
        info,
        'created',
        next,
        source,
      ),
    done,
  );
}

function forEachManifest(
  ctx: Ctx,
  verb: string,
  step: (obj: KubeObject, info: ResourceInfo, source: string, next: () => void) => void,
  done: () => void,
): void {
  if (!ctx.args.flags.has('filename')) {
    ctx.error(
      `error: must specify one of -f and -k\n\nSee 'kubectl ${verb} -h' for help and examples`,
    );
    done();
    return;
  }
  const manifests = readFilenameFlags(ctx);
  if (!manifests.ok) {
    ctx.error(manifests.error);
    done();
    return;
  }
  const sourceOf = new Map(manifests.objects.map((o, i) => [o, manifests.sources[i] ?? 'STDIN'] as const));
  forEachSeq(
    manifests.objects,
    (obj, next) => {
      const info = resourceForKind(obj.kind ?? '', obj.apiVersion);
      if (!info) {
        ctx.error(
          `resource mapping not found for name: "${obj.metadata.name ?? ''}" namespace: "${obj.metadata.namespace ?? ''}" from "STDIN": no matches for kind "${obj.kind}" in version "${obj.apiVersion}"\nensure CRDs are installed first`,
        );
        next();
        return;
      }
      const ns = obj.metadata.namespace;
      if (info.namespaced && ns && ctx.namespaceExplicit && ns !== ctx.namespace) {
        ctx.error(
          `the namespace from the provided object "${ns}" does not match the namespace "${ctx.namespace}". You must pass '--namespace=${ns}' to perform this operation.`,
        );
        next();
        return;
      }
      step(obj, info, sourceOf.get(obj) ?? 'STDIN', next);
    },
    done,
  );
}

const isDryRun = (ctx: Ctx): boolean => flagString(ctx.args, 'dry-run') === 'client';

/** Prints the result line or, with -o, the object. */
function report(
  ctx: Ctx,
  obj: KubeObject,
  info: ResourceInfo,
  op: 'created' | 'configured' | 'unchanged',
): void {
  const output = flagString(ctx.args, 'output');
  if (output) {
    const format = parseOutputFormat(output);
    if (!format.ok) ctx.error(format.error);
    else if (format.format.kind !== 'table')
      ctx.out(printStructured(format.format, [obj], true, () => typePrefix(info)));
    else ctx.out(operationLine(typePrefix(info), obj.metadata.name ?? '', op, isDryRun(ctx)));
    return;
  }
  ctx.out(operationLine(typePrefix(info), obj.metadata.name ?? '', op, isDryRun(ctx)));
}

export function createObject(
  ctx: Ctx,
  obj: KubeObject,
  info: ResourceInfo,
  op: 'created',
  done: () => void,
  /** The manifest's source, for cmdutil.AddSourceToErr ("STDIN" or the file); none for generators. */
  source?: string,
): void {
  if (isDryRun(ctx)) {
    report(ctx, obj, info, op);
    done();
    return;
  }
  const namespace = ctx.namespaceFor(info, obj);
  ctx.request(
    {
      verb: 'create',
      resource: gvr(info),
      namespace,
      body: namespace ? withNamespace(obj, namespace) : obj,
    },
    (res) => {
      if (res.ok) report(ctx, res.body as KubeObject, info, op);
      else ctx.statusError(source === undefined ? res.status : withSource('creating', source, res.status));
      done();
    },
  );
}

/**
 * cmdutil.AddSourceToErr: `error when creating "STDIN": ` before the server's message. kubectl
 * prints an Invalid status from its causes ("The Pod "x" is invalid: ..."), where the prefix
 * does not show, so the message changes but not what is printed.
 */
function withSource(verb: string, source: string, status: Status): Status {
  return { ...status, message: `error when ${verb} "${source}": ${status.message ?? ''}` };
}

function withNamespace(obj: KubeObject, namespace: string): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, namespace } };
}

/** The annotation value kubectl stores: the configuration as sorted compact JSON and a newline. */
export function lastAppliedText(config: KubeObject): string {
  const copy = JSON.parse(JSON.stringify(config)) as KubeObject;
  const annotations = { ...(copy.metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED];
  if (Object.keys(annotations).length === 0) delete copy.metadata.annotations;
  else copy.metadata.annotations = annotations;
  return `${compactJSON(copy)}\n`;
}

function withLastApplied(config: KubeObject, text: string): KubeObject {
  return {
    ...config,
    metadata: {
      ...config.metadata,
      annotations: { ...(config.metadata.annotations ?? {}), [LAST_APPLIED]: text },
    },
  };
}

/** apply.go warningNoLastAppliedConfigAnnotation. */
function missingAnnotationWarning(objectName: string): string {
  return (
    `Warning: resource ${objectName} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. ` +
    'kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. ' +
    'The missing annotation will be patched automatically.\n'
  );
}

/** patcher.go maxPatchRetry: a write that meets a Conflict is read and merged again this many times. */
const MAX_APPLY_RETRIES = 5;

function applyOne(ctx: Ctx, config: KubeObject, info: ResourceInfo, source: string, done: () => void, attempt = 1): void {
  const namespace = ctx.namespaceFor(info, config);
  const name = config.metadata.name ?? '';
  const annotation = lastAppliedText(config);
  ctx.request({ verb: 'get', resource: gvr(info), namespace, name }, (res) => {
    if (!res.ok && res.status.reason === 'NotFound') {
      createObject(ctx, withLastApplied(config, annotation), info, 'created', done, source);
      return;
    }
    if (!res.ok) {
      ctx.statusError(res.status);
      done();
      return;
    }
    const live = res.body as KubeObject;
    const previousText = live.metadata.annotations?.[LAST_APPLIED];
    if (previousText === undefined)
      ctx.stderr += missingAnnotationWarning(`${info.resource}/${name}`);
    const previous = previousText ? (JSON.parse(previousText) as Json) : {};
    const merged = threeWayMerge(
      live as unknown as Json,
      config as unknown as Json,
      previous,
    ) as unknown as KubeObject;
    const next = withLastApplied(merged, annotation);
    if (deepEqual(next, live)) {
      report(ctx, live, info, 'unchanged');
      done();
      return;
    }
    if (isDryRun(ctx)) {
      report(ctx, next, info, 'configured');
      done();
      return;
    }
    ctx.request({ verb: 'update', resource: gvr(info), namespace, name, body: next }, (upd) => {
      // the object changed between our read and our write (a controller or the kubelet wrote it):
      // read it again and merge again, as patcher.go does on a Conflict
      if (!upd.ok && upd.status.reason === 'Conflict' && attempt < MAX_APPLY_RETRIES) {
        applyOne(ctx, config, info, source, done, attempt + 1);
        return;
      }
      if (upd.ok) report(ctx, upd.body as KubeObject, info, 'configured');
      else ctx.statusError(upd.status);
      done();
    });
  });
}

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merge keys of the lists strategic merge patch merges item by item (patchMergeKey in the API types). */
const MERGE_KEYS = ['name', 'containerPort', 'port', 'type', 'ip', 'key'];

/**
 * A simplified strategic three-way merge: fields of the new configuration win, maps merge
 * recursively, lists of objects merge by their merge key, and fields present in the previous
 * configuration but absent from the new one are removed. Fields only the server set survive.
 */
export function threeWayMerge(live: Json, config: Json, previous: Json): Json {
  const out: Json = { ...live };
  for (const [key, value] of Object.entries(config))
    out[key] = mergeValue(live[key], value, previous[key]);
  for (const key of Object.keys(previous)) if (!(key in config)) delete out[key];
  return out;
}

function mergeValue(live: unknown, config: unknown, previous: unknown): unknown {
  if (isMap(config) && isMap(live))
    return threeWayMerge(live, config, isMap(previous) ? previous : {});
  if (Array.isArray(config) && Array.isArray(live)) {
    const key = mergeKeyOf(config);
    if (key) {
      return config.map((item) => {
        const liveItem = live.find((l) => isMap(l) && l[key] === (item as Json)[key]);
        const prevItem = Array.isArray(previous)
          ? previous.find((p) => isMap(p) && p[key] === (item as Json)[key])
          : undefined;
        return isMap(liveItem)
          ? threeWayMerge(liveItem, item as Json, isMap(prevItem) ? prevItem : {})
          : item;
      });
    }
  }
  return config;
}

function mergeKeyOf(list: unknown[]): string | undefined {
  if (list.length === 0 || !list.every(isMap)) return undefined;
  return MERGE_KEYS.find((k) => list.every((item) => (item as Json)[k] !== undefined));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return compactJSON(a) === compactJSON(b);
}
