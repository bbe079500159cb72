// Fetching what a command acts on: named objects, lists by selector, or the objects named in -f
// manifests. Errors (NotFound, Forbidden...) are printed as kubectl prints them and the rest of
// the targets are still fetched, like cli-runtime's resource.Builder with ContinueOnError.
import type { KubeObject, ResourceInfo } from '../../../api/index.ts';
import { resourceForKind } from '../../../api/index.ts';
import { flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import { readFilenameFlags } from '../manifests.ts';
import type { ResourceRequest } from '../resources.ts';
import { resolveResourceArgs } from '../resources.ts';
import type { ObjectList } from '../transport.ts';

export interface TargetGroup {
  info: ResourceInfo;
  objects: KubeObject[];
  /** Whether names were given (a NotFound then is an error, and one name prints as itself). */
  named: boolean;
  /** The list's resourceVersion, where a watch starts. */
  resourceVersion?: string;
}

export interface TargetOptions {
  /** Text printed when neither a type nor -f was given. */
  missingTypeError: string;
  /** A named object that does not exist is left out silently (as --ignore-not-found does). */
  ignoreNotFound?: boolean;
  /**
   * false: named objects and -f manifests are not read from the server; each target is only its
   * name and namespace (resource.Builder's RequireObject(false), which delete.go sets: its DELETE is
   * the first request, so a refusal names the verb "delete"). Selectors and --all still list.
   */
  requireObject?: boolean;
}

/** Resolves positional args (or -f) into groups of fetched objects; calls done(undefined) after a usage error. */
export function fetchTargets(
  ctx: Ctx,
  options: TargetOptions,
  done: (groups: TargetGroup[] | undefined) => void,
): void {
  if (ctx.args.flags.has('filename')) {
    const manifests = readFilenameFlags(ctx);
    if (!manifests.ok) {
      ctx.error(manifests.error);
      done(undefined);
      return;
    }
    const requests: ResourceRequest[] = [];
    const groups: TargetGroup[] = [];
    for (const obj of manifests.objects) {
      const info = resourceForKind(obj.kind ?? '', obj.apiVersion);
      if (!info) {
        ctx.error(
          `resource mapping not found for name: "${obj.metadata.name ?? ''}" namespace: "${obj.metadata.namespace ?? ''}" from "STDIN": no matches for kind "${obj.kind}" in version "${obj.apiVersion}"\nensure CRDs are installed first`,
        );
        continue;
      }
      requests.push({ info, names: [obj.metadata.name ?? ''] });
      const namespace = obj.metadata.namespace;
      const ref = { metadata: { name: obj.metadata.name ?? '', ...(namespace ? { namespace } : {}) } } as KubeObject;
      groups.push({ info, objects: [ref], named: true });
    }
    if (options.requireObject === false) done(groups);
    else fetchRequests(ctx, requests, options, done);
    return;
  }
  if (ctx.args.positionals.length === 0) {
    ctx.error(options.missingTypeError);
    done(undefined);
    return;
  }
  const resolved = resolveResourceArgs(ctx.args.positionals);
  if (!resolved.ok) {
    ctx.error(resolved.error);
    done(undefined);
    return;
  }
  fetchRequests(ctx, resolved.requests, options, done);
}

function fetchRequests(
  ctx: Ctx,
  requests: ResourceRequest[],
  options: TargetOptions,
  done: (groups: TargetGroup[]) => void,
): void {
  const groups: TargetGroup[] = [];
  forEachSeq(
    requests,
    (request, next) => {
      const group: TargetGroup = {
        info: request.info,
        objects: [],
        named: request.names.length > 0,
      };
      groups.push(group);
      if (request.names.length > 0 && options.requireObject === false) {
        group.objects.push(...request.names.map((name) => ({ metadata: { name } }) as KubeObject));
        next();
      } else if (request.names.length > 0) getNamed(ctx, request, group, options.ignoreNotFound === true, next);
      else listAll(ctx, request.info, group, next);
    },
    () => done(groups),
  );
}

function getNamed(ctx: Ctx, request: ResourceRequest, group: TargetGroup, ignoreNotFound: boolean, done: () => void): void {
  forEachSeq(
    request.names,
    (name, next) => {
      ctx.request(
        {
          verb: 'get',
          resource: gvr(request.info),
          namespace: ctx.namespaceFor(request.info),
          name,
        },
        (res) => {
          if (res.ok) group.objects.push(res.body as KubeObject);
          else if (!(res.status.reason === 'NotFound' && (ignoreNotFound || ctx.args.flags.get('ignore-not-found') === true)))
            ctx.statusError(res.status);
          next();
        },
      );
    },
    done,
  );
}

/** Lists one type with -l / --field-selector, in the namespace or across all with -A. */
export function listAll(ctx: Ctx, info: ResourceInfo, group: TargetGroup, done: () => void): void {
  const namespace = info.namespaced && !ctx.allNamespaces ? ctx.namespace : undefined;
  const query = {
    labelSelector: flagString(ctx.args, 'selector'),
    fieldSelector: flagString(ctx.args, 'field-selector'),
  };
  ctx.request({ verb: 'list', resource: gvr(info), namespace, query }, (res) => {
    if (res.ok) {
      const list = res.body as ObjectList;
      group.objects.push(...list.items.map((o) => withTypeMeta(o, info)));
      group.resourceVersion = list.metadata?.resourceVersion;
    } else ctx.statusError(res.status);
    done();
  });
}

/** List items arrive without apiVersion/kind on the wire; kubectl fills them back in. */
export function withTypeMeta(obj: KubeObject, info: ResourceInfo): KubeObject {
  if (obj.apiVersion && obj.kind) return obj;
  const apiVersion = info.group === '' ? info.version : `${info.group}/${info.version}`;
  return { apiVersion, kind: info.kind, ...obj } as KubeObject;
}
