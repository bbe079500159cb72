// kubectl replace -f: mirrors staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go. Each object
// replaces the live one whole (PUT); without a resourceVersion of its own it takes the live one's
// (resource.Helper.Replace with overwrite), so a missing object is a NotFound. --force deletes the
// object and creates it from the file instead, for changes an update may not make.
import type { KubeObject, ResourceInfo } from '../../../api/index.ts';
import { flagBool } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { deletedLine, operationLine } from '../errors.ts';
import { typePrefix } from '../resources.ts';
import { forEachManifest, withNamespace, withSource } from './apply.ts';

export function runReplace(ctx: Ctx, done: () => void): void {
  if (!ctx.args.flags.has('filename')) {
    ctx.error('must specify --filename to replace');
    return done();
  }
  const force = flagBool(ctx.args, 'force');
  forEachManifest(ctx, 'replace', (obj, info, source, next) => (force ? forceReplace : replaceOne)(ctx, obj, info, source, next), done);
}

function replaceOne(ctx: Ctx, obj: KubeObject, info: ResourceInfo, source: string, next: () => void): void {
  const namespace = ctx.namespaceFor(info, obj);
  const name = obj.metadata.name ?? '';
  const put = (body: KubeObject): void => {
    ctx.request({ verb: 'update', resource: gvr(info), namespace, name, body, query: ctx.writeQuery() }, (res) => {
      if (res.ok) ctx.out(operationLine(typePrefix(info), name, 'replaced', ctx.dryRunPrint));
      else ctx.statusError(withSource('replacing', source, res.status));
      next();
    });
  };
  const body = namespace ? withNamespace(obj, namespace) : obj;
  if (obj.metadata.resourceVersion) return put(body);
  ctx.request({ verb: 'get', resource: gvr(info), namespace, name }, (res) => {
    if (!res.ok) {
      ctx.statusError(withSource('replacing', source, res.status));
      return next();
    }
    put({ ...body, metadata: { ...body.metadata, resourceVersion: (res.body as KubeObject).metadata.resourceVersion ?? '' } });
  });
}

/** --force: delete (a missing object is fine), wait until it is gone, then create. */
function forceReplace(ctx: Ctx, obj: KubeObject, info: ResourceInfo, source: string, next: () => void): void {
  const namespace = ctx.namespaceFor(info, obj);
  const name = obj.metadata.name ?? '';
  const resource = gvr(info);
  const create = (): void => {
    const body = namespace ? withNamespace(obj, namespace) : obj;
    const { resourceVersion: _rv, ...metadata } = body.metadata;
    ctx.request({ verb: 'create', resource, namespace, body: { ...body, metadata }, query: ctx.writeQuery() }, (res) => {
      if (res.ok) ctx.out(operationLine(typePrefix(info), name, 'replaced', ctx.dryRunPrint));
      else ctx.statusError(withSource('replacing', source, res.status));
      next();
    });
  };
  ctx.request({ verb: 'delete', resource, namespace, name }, (res) => {
    if (!res.ok && res.status.code !== 404) {
      ctx.statusError(withSource('replacing', source, res.status));
      return next();
    }
    if (res.ok) ctx.out(deletedLine(info.kind.toLowerCase(), name, ctx.dryRunPrint));
    waitUntilGone(ctx, info, namespace, name, create);
  });
}

/** replace.go waits for the deletion (a pod's grace period) before creating: poll once a second. */
function waitUntilGone(ctx: Ctx, info: ResourceInfo, namespace: string | undefined, name: string, then: () => void, triesLeft = 120): void {
  ctx.request({ verb: 'get', resource: gvr(info), namespace, name }, (res) => {
    if (!res.ok || triesLeft <= 0 || !ctx.io.after) return then();
    ctx.io.after(1000, () => waitUntilGone(ctx, info, namespace, name, then, triesLeft - 1));
  });
}
