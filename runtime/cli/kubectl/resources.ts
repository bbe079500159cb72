// What follows `kubectl get|describe|delete ...`: resource types and names, in every form kubectl
// accepts ("pods", "po nginx web", "deploy/web", "pod/a svc/b", "pods,svc", "all"), resolved
// through the kind registry. mirrors staging/src/k8s.io/cli-runtime/pkg/resource/builder.go
// (ResourceTypeOrNameArgs, splitResourceTypeName, the "all" category expansion).
import type { ResourceInfo } from '../../api/index.ts';
import { lookupResource, resourcesInCategory } from '../../api/index.ts';

export interface ResourceRequest {
  info: ResourceInfo;
  /** Empty: every object of the type. */
  names: string[];
}

export type ResolveResult =
  { ok: true; requests: ResourceRequest[] } | { ok: false; error: string };

const TYPE_NAME_MIX =
  "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

export function resolveTypes(
  typed: string,
): { ok: true; infos: ResourceInfo[] } | { ok: false; error: string } {
  const infos: ResourceInfo[] = [];
  for (const part of typed.split(',')) {
    if (part === '') continue;
    const expanded =
      part.toLowerCase() === 'all' ? resourcesInCategory('all') : [lookupResource(part)];
    for (const info of expanded) {
      if (!info)
        return { ok: false, error: `error: the server doesn't have a resource type "${part}"` };
      if (!infos.includes(info)) infos.push(info);
    }
  }
  return { ok: true, infos };
}

/** Parses positional arguments into per-type requests, keeping the order kubectl prints them in. */
export function resolveResourceArgs(args: readonly string[]): ResolveResult {
  if (args.length === 0) return { ok: true, requests: [] };
  if (args.some((a) => a.includes('/'))) {
    if (!args.every((a) => a.includes('/'))) return { ok: false, error: TYPE_NAME_MIX };
    const requests: ResourceRequest[] = [];
    for (const arg of args) {
      const slash = arg.indexOf('/');
      const [typed, name] = [arg.slice(0, slash), arg.slice(slash + 1)];
      if (name === '')
        return {
          ok: false,
          error: `error: arguments in resource/name form must have a single resource and name`,
        };
      const info = lookupResource(typed);
      if (!info)
        return { ok: false, error: `error: the server doesn't have a resource type "${typed}"` };
      const existing = requests.find((r) => r.info === info);
      if (existing) existing.names.push(name);
      else requests.push({ info, names: [name] });
    }
    return { ok: true, requests };
  }
  const types = resolveTypes(args[0]!);
  if (!types.ok) return types;
  return { ok: true, requests: types.infos.map((info) => ({ info, names: args.slice(1) })) };
}

/** "pod", "deployment.apps": the prefix of `-o name` and of kind/name table rows. */
export function typePrefix(info: Pick<ResourceInfo, 'kind' | 'group'>): string {
  return info.group === '' ? info.kind.toLowerCase() : `${info.kind.toLowerCase()}.${info.group}`;
}
