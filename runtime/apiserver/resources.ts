// The resources this API server serves and where each lives in etcd.
// Storage prefixes mirror pkg/registry/<group>/<resource>/storage/storage.go (DefaultQualifiedResource
// and the etcd prefix): most resources live under /registry/<resource>, a few keep historic names
// (nodes under /registry/minions, services under /registry/services/specs).
import { RESOURCES, resourceFor, type ResourceInfo } from '../api/index.ts';

/** Every resource served, in discovery order. */
export const SERVED_RESOURCES: readonly ResourceInfo[] = RESOURCES;

/** Resolves a group and plural resource name to what we serve. */
export function servedResource(group: string, resource: string): ResourceInfo | undefined {
  return resourceFor(group, resource);
}

/** Historic etcd prefixes that differ from the resource name. */
const PREFIX_OVERRIDES: Record<string, string> = {
  '/nodes': '/registry/minions',
  '/services': '/registry/services/specs',
};

/** The etcd prefix of a resource, without a trailing slash: "/registry/pods", "/registry/minions". */
export function storagePrefix(r: Pick<ResourceInfo, 'group' | 'resource'>): string {
  // events.k8s.io events share the core events' storage, as upstream.
  const own = PREFIX_OVERRIDES[`${r.group}/${r.resource}`];
  return own ?? `/registry/${r.resource}`;
}

/** A stable identifier of a resource: "pods", "deployments.apps" (GroupResource.String()). */
export function groupResourceName(r: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}
