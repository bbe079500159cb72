// kubectl apply (client-side) and kubectl create -f.
// apply mirrors staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go and patcher.go: GET the live
// object; if absent, create it with the last-applied-configuration annotation; otherwise compute
// the three-way strategic merge patch (last applied, new configuration, live object; the new
// annotation travels inside it) and PATCH it, printing "configured", or print "unchanged" without
// a request when the patch is {}.
import type { KubeObject, ResourceInfo, Status } from '../../../api/index.ts';
import { createThreeWayMergePatch, patchStructForKind, resourceForKind } from '../../../api/index.ts';
import { flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import { operationLine } from '../errors.ts';
import { readFilenameFlags } from '../manifests.ts';
import { compactJSON } from '../printers/json-emit.ts';
import { parseOutputFormat, tryPrintStructured } from '../printers/output.ts';
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

export function forEachManifest(
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
  op: 'created' | 'configured' | 'unchanged' | 'exposed',
): void {
  const output = flagString(ctx.args, 'output');
  if (output) {
    const format = parseOutputFormat(output);
    if (!format.ok) ctx.error(format.error);
    else if (format.format.kind !== 'table') {
      const printed = tryPrintStructured(format.format, [obj], true, () => typePrefix(info));
      if (printed.ok) ctx.out(printed.text);
      else ctx.error(printed.error);
    }
    else ctx.out(operationLine(typePrefix(info), obj.metadata.name ?? '', op, ctx.dryRunPrint));
    return;
  }
  ctx.out(operationLine(typePrefix(info), obj.metadata.name ?? '', op, ctx.dryRunPrint));
}

export function createObject(
  ctx: Ctx,
  obj: KubeObject,
  info: ResourceInfo,
  op: 'created' | 'exposed',
  done: () => void,
  /** The manifest's source, for cmdutil.AddSourceToErr ("STDIN" or the file); none for generators. */
  source?: string,
  /**
   * A generator's fmt.Errorf wrapping of the create's error (create_deployment.go's "failed to create
   * deployment: "): the Status becomes plain text, printed as "error: <wrap><message>".
   */
  wrap?: string,
): void {
  if (isDryRun(ctx)) {
    report(ctx, obj, info, op);
    done();
    return;
  }
  const namespace = ctx.namespaceFor(info, obj);
  const query = ctx.writeQuery();
  ctx.request(
    {
      verb: 'create',
      resource: gvr(info),
      namespace,
      body: namespace ? withNamespace(obj, namespace) : obj,
      ...(Object.keys(query).length > 0 ? { query } : {}),
    },
    (res) => {
      if (res.ok) report(ctx, res.body as KubeObject, info, op);
      else if (wrap !== undefined) ctx.error(`${wrap}${res.status.message ?? ''}`);
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
export function withSource(verb: string, source: string, status: Status): Status {
  return { ...status, message: `error when ${verb} "${source}": ${status.message ?? ''}` };
}

export function withNamespace(obj: KubeObject, namespace: string): KubeObject {
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

/** patcher.go maxPatchRetry: a patch that meets a Conflict is computed again from a fresh read this many times. */
const MAX_PATCH_RETRIES = 5;

function applyOne(ctx: Ctx, config: KubeObject, info: ResourceInfo, source: string, done: () => void, retry = 0): void {
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
    // apply.go: a client dry run neither diffs nor patches an existing object
    if (isDryRun(ctx)) {
      report(ctx, config, info, 'configured');
      done();
      return;
    }
    const live = res.body as KubeObject;
    const previousText = live.metadata.annotations?.[LAST_APPLIED];
    if (previousText === undefined && retry === 0)
      ctx.stderr += missingAnnotationWarning(`${info.resource}/${name}`);
    const patch = applyPatch(previousText, withLastApplied(config, annotation), live, info);
    if (!patch.ok) {
      // cmdutil.AddSourceToErr("creating patch with: original/modified/current ... for:", source, err), without the three documents
      ctx.error(`error when creating patch for: "${source}": ${patch.error}`);
      done();
      return;
    }
    if (Object.keys(patch.patch).length === 0) {
      report(ctx, live, info, 'unchanged');
      done();
      return;
    }
    ctx.request(
      { verb: 'patch', resource: gvr(info), namespace, name, body: patch.patch, query: { patchType: 'strategic', ...ctx.writeQuery() } },
      (patched) => {
        // patcher.go: on a Conflict, read the object again and compute the patch again
        if (!patched.ok && patched.status.reason === 'Conflict' && retry < MAX_PATCH_RETRIES) {
          applyOne(ctx, config, info, source, done, retry + 1);
          return;
        }
        if (patched.ok) report(ctx, patched.body as KubeObject, info, 'configured');
        else ctx.statusError(patched.status);
        done();
      },
    );
  });
}

/**
 * patcher.go buildMergePatch for a built-in kind: CreateThreeWayMergePatch(original = the
 * last-applied annotation, modified = the new configuration with its new annotation, current =
 * the live object), with the struct tags of the object's kind.
 */
function applyPatch(
  previousText: string | undefined,
  modified: KubeObject,
  live: KubeObject,
  info: ResourceInfo,
): { ok: true; patch: Json } | { ok: false; error: string } {
  let original: Json = {};
  if (previousText) {
    try {
      original = JSON.parse(previousText) as Json;
    } catch {
      return { ok: false, error: `couldn't parse the ${LAST_APPLIED} annotation` };
    }
  }
  return createThreeWayMergePatch(
    original,
    modified as unknown as Json,
    live as unknown as Json,
    patchStructForKind(info.kind),
  );
}
