// The discovery documents (/api, /apis, /api/v1, /apis/<group>, /apis/<group>/<version>), which
// clients read to learn what the server serves: apimachinery's APIVersions, APIGroupList, APIGroup
// and APIResourceList, built from the resource registry. Groups come in the registry's order, which
// follows the aggregator's group priorities; a version's resources are sorted by path, each
// subresource right after its resource (the installer registers sorted paths, endpoints/installer.go).
// storageVersionHash is left out (upstream's is a SHA-256 prefix of group/version/kind).
import { RESOURCES, type ResourceInfo } from '../api/index.ts';

interface GroupVersion {
  groupVersion: string;
  version: string;
}

interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: readonly string[];
  shortNames?: readonly string[];
  categories?: readonly string[];
}

/** The kind and verbs of each subresource that is not simply its parent's kind (registry/core/pod/storage and friends). */
const SUBRESOURCES: Record<string, { kind?: string; group?: string; version?: string; verbs: readonly string[] }> = {
  status: { verbs: ['get', 'patch', 'update'] },
  scale: { kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
  log: { verbs: ['get'] },
  exec: { kind: 'PodExecOptions', verbs: ['create', 'get'] },
  attach: { kind: 'PodAttachOptions', verbs: ['create', 'get'] },
  portforward: { kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
  binding: { kind: 'Binding', verbs: ['create'] },
  eviction: { kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  ephemeralcontainers: { verbs: ['get', 'patch', 'update'] },
  resize: { verbs: ['get', 'patch', 'update'] },
  finalize: { verbs: ['update'] },
  token: { kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
};
const PROXY_KINDS: Record<string, string> = { pods: 'PodProxyOptions', nodes: 'NodeProxyOptions', services: 'ServiceProxyOptions' };
const PROXY_VERBS = ['create', 'delete', 'get', 'patch', 'update'];

const groupVersion = (r: Pick<ResourceInfo, 'group' | 'version'>): GroupVersion => ({
  groupVersion: r.group === '' ? r.version : `${r.group}/${r.version}`,
  version: r.version,
});

/** The discovery document at `path`, or undefined when the path is not one. */
export function discoveryDocument(path: string, serverAddress: string): object | undefined {
  if (path === '/api') {
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
  }
  if (path === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups().map(apiGroup) };
  if (path === '/api/v1') return resourceList('', 'v1');
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (!m) return undefined;
  const group = groups().find((g) => g.name === m[1]);
  if (!group) return undefined;
  if (m[2] === undefined) return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) };
  return group.versions.includes(m[2]) ? resourceList(group.name, m[2]) : undefined;
}

function groups(): { name: string; versions: string[] }[] {
  const out: { name: string; versions: string[] }[] = [];
  for (const r of RESOURCES) {
    if (r.group === '') continue;
    const g = out.find((x) => x.name === r.group) ?? out[out.push({ name: r.group, versions: [] }) - 1]!;
    if (!g.versions.includes(r.version)) g.versions.push(r.version);
  }
  return out;
}

function apiGroup(g: { name: string; versions: string[] }): object {
  const versions = g.versions.map((version) => groupVersion({ group: g.name, version }));
  return { name: g.name, versions, preferredVersion: versions[0]! };
}

function resourceList(group: string, version: string): object {
  const resources: APIResource[] = [];
  for (const r of RESOURCES.filter((x) => x.group === group && x.version === version)) {
    resources.push({
      name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs,
      ...(r.shortNames.length > 0 ? { shortNames: r.shortNames } : {}),
      ...(r.categories.length > 0 ? { categories: r.categories } : {}),
    });
    for (const sub of r.subresources) resources.push(subresource(r, sub));
  }
  resources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion({ group, version }).groupVersion, resources };
}

function subresource(r: ResourceInfo, sub: string): APIResource {
  const known = SUBRESOURCES[sub];
  const kind = sub === 'proxy' ? (PROXY_KINDS[r.resource] ?? r.kind) : (known?.kind ?? r.kind);
  return {
    name: `${r.resource}/${sub}`, singularName: '', namespaced: r.namespaced,
    ...(known?.group !== undefined ? { group: known.group, version: known.version! } : {}),
    kind, verbs: sub === 'proxy' ? PROXY_VERBS : (known?.verbs ?? ['get']),
  };
}
