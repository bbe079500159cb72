// The volumes the kubelet sets up before a pod's sandbox (kubelet.go SyncPod: WaitForAttachAndMount
// before the runtime's SyncPod), and the files a container then finds at its mount paths:
// - configMap and secret volumes: one file per key (or per item), a Secret's values decoded
//   (pkg/volume/configmap, pkg/volume/secret MakePayload);
// - projected volumes, as the kube-api-access-* volume every pod gets: the service account token,
//   the kube-root-ca.crt ConfigMap's ca.crt, and downward-API files (pkg/volume/projected);
// - emptyDir and hostPath: directories with nothing the simulation puts in them.
// A missing ConfigMap or Secret (not optional), or a missing item key, fails the mount: the pod
// stays ContainerCreating with FailedMount events until the object appears. The token is the one
// the API server issued the kubelet for this pod (TokenRequest bound to the pod), so a process can
// present it to the API server as the pod's service account.
import { podFieldPathValue, type ConfigMap, type Container, type Pod, type Secret, type Volume } from '../api/index.ts';
import { sourceData, sourceNotFound, type FetchedSources, type SourceKind } from './env-sources.ts';

/** Each mounted volume's files, by path inside the volume. */
export type MountedVolumes = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** The projected volume source that asks for a service account token, if the pod has one. */
export function tokenSourceOf(pod: Pod): { expirationSeconds: number; audience?: string } | undefined {
  for (const v of pod.spec.volumes ?? []) {
    for (const s of (v.projected?.sources ?? []) as ProjectedSource[]) {
      if (s.serviceAccountToken) return { expirationSeconds: s.serviceAccountToken.expirationSeconds ?? 3600, ...(s.serviceAccountToken.audience ? { audience: s.serviceAccountToken.audience } : {}) };
    }
  }
  return undefined;
}

interface ProjectedSource {
  serviceAccountToken?: { path: string; expirationSeconds?: number; audience?: string };
  configMap?: { name?: string; items?: { key: string; path: string }[]; optional?: boolean };
  secret?: { name?: string; items?: { key: string; path: string }[]; optional?: boolean };
  downwardAPI?: { items?: { path: string; fieldRef?: { fieldPath: string } }[] };
}

/** The ConfigMaps and Secrets a pod's volumes read. */
export function volumeSources(pod: Pod): { kind: SourceKind; name: string }[] {
  const out: { kind: SourceKind; name: string }[] = [];
  const add = (kind: SourceKind, name: string | undefined): void => {
    if (name && !out.some((s) => s.kind === kind && s.name === name)) out.push({ kind, name });
  };
  for (const v of pod.spec.volumes ?? []) {
    add('ConfigMap', v.configMap?.name);
    add('Secret', v.secret?.secretName);
    for (const s of (v.projected?.sources ?? []) as ProjectedSource[]) {
      add('ConfigMap', s.configMap?.name);
      add('Secret', s.secret?.name);
    }
  }
  return out;
}

export interface MountContext {
  /** The bound token the API server issued for this pod (TokenRequest), for a serviceAccountToken source. */
  serviceAccountToken?: string;
}

type Payload = { ok: true; files: Record<string, string> } | { ok: false; error: string };

/** A ConfigMap's or Secret's files: every key, or the items asked for (MakePayload). */
function payload(kind: SourceKind, name: string, obj: ConfigMap | Secret | null | undefined, items: { key: string; path: string }[] | undefined, optional: boolean): Payload {
  if (!obj) return optional ? { ok: true, files: {} } : { ok: false, error: sourceNotFound(kind, name) };
  const data = sourceData(kind, obj);
  if (!items || items.length === 0) return { ok: true, files: data };
  const files: Record<string, string> = {};
  for (const item of items) {
    if (!(item.key in data)) {
      if (optional) continue;
      return { ok: false, error: kind === 'ConfigMap' ? `configmap references non-existent config key: ${item.key}` : `references non-existent secret key: ${item.key}` };
    }
    files[item.path] = data[item.key]!;
  }
  return { ok: true, files };
}

/** A downward-API file: one field, or all labels or annotations as key="value" lines. */
function downwardValue(pod: Pod, path: string): string {
  if (path === 'metadata.labels') return Object.entries(pod.metadata.labels ?? {}).map(([k, v]) => `${k}="${v}"`).sort().join('\n');
  if (path === 'metadata.annotations') return Object.entries(pod.metadata.annotations ?? {}).map(([k, v]) => `${k}="${v}"`).sort().join('\n');
  return podFieldPathValue(pod, path);
}

function mountOne(pod: Pod, v: Volume, sources: FetchedSources, m: MountContext): Payload {
  if (v.configMap) return payload('ConfigMap', v.configMap.name ?? '', sources.get(`ConfigMap/${v.configMap.name ?? ''}`), v.configMap.items, v.configMap.optional === true);
  if (v.secret) {
    return payload('Secret', v.secret.secretName ?? '', sources.get(`Secret/${v.secret.secretName ?? ''}`), v.secret.items, v.secret.optional === true);
  }
  if (!v.projected) return { ok: true, files: {} };
  const files: Record<string, string> = {};
  for (const s of v.projected.sources as ProjectedSource[]) {
    let part: Payload = { ok: true, files: {} };
    if (s.serviceAccountToken) {
      part = m.serviceAccountToken !== undefined ? { ok: true, files: { [s.serviceAccountToken.path]: m.serviceAccountToken } } : { ok: false, error: 'failed to fetch token: no token was issued' };
    }
    else if (s.configMap) part = payload('ConfigMap', s.configMap.name ?? '', sources.get(`ConfigMap/${s.configMap.name ?? ''}`), s.configMap.items, s.configMap.optional === true);
    else if (s.secret) part = payload('Secret', s.secret.name ?? '', sources.get(`Secret/${s.secret.name ?? ''}`), s.secret.items, s.secret.optional === true);
    else if (s.downwardAPI) part = { ok: true, files: Object.fromEntries((s.downwardAPI.items ?? []).map((i) => [i.path, downwardValue(pod, i.fieldRef?.fieldPath ?? '')])) };
    if (!part.ok) return part;
    Object.assign(files, part.files);
  }
  return { ok: true, files };
}

/** Sets up every volume, or says which one failed and why (MountVolume.SetUp). */
export function mountVolumes(pod: Pod, sources: FetchedSources, m: MountContext): { ok: true; volumes: MountedVolumes } | { ok: false; volume: string; error: string } {
  const volumes = new Map<string, Record<string, string>>();
  for (const v of pod.spec.volumes ?? []) {
    const r = mountOne(pod, v, sources, m);
    if (!r.ok) return { ok: false, volume: v.name, error: r.error };
    volumes.set(v.name, r.files);
  }
  return { ok: true, volumes };
}

/**
 * The files a container sees through its volume mounts (subPath mounts one file or directory of the
 * volume). `withSubPath: false` leaves subPath mounts out: they are bind mounts of what the volume
 * held when the container started, and never change after (the kubelet's remount does not reach them).
 */
export function containerFiles(c: Container, volumes: MountedVolumes | undefined, withSubPath = true): Record<string, string> {
  const out: Record<string, string> = {};
  for (const mount of c.volumeMounts ?? []) {
    const files = volumes?.get(mount.name);
    if (!files) continue;
    const base = mount.mountPath.replace(/\/+$/, '');
    const sub = mount.subPath;
    if (!withSubPath && sub !== undefined && sub !== '') continue;
    for (const [path, content] of Object.entries(files)) {
      if (sub === undefined || sub === '') out[`${base}/${path}`] = content;
      else if (path === sub) out[base] = content;
      else if (path.startsWith(`${sub}/`)) out[`${base}/${path.slice(sub.length + 1)}`] = content;
    }
  }
  return out;
}

/**
 * The ConfigMaps and Secrets of the pod's configMap and secret volumes: the volumes the kubelet
 * mounts again on every pod sync (their plugins' RequiresRemount), so a changed object reaches the
 * files. The kube-api-access projected volume is not remounted here (its token is not rotated).
 */
export function remountedSources(pod: Pod): { kind: SourceKind; name: string }[] {
  const out: { kind: SourceKind; name: string }[] = [];
  for (const v of pod.spec.volumes ?? []) {
    const ref = v.configMap ? { kind: 'ConfigMap' as const, name: v.configMap.name ?? '' } : v.secret ? { kind: 'Secret' as const, name: v.secret.secretName ?? '' } : undefined;
    if (ref && !out.some((s) => s.kind === ref.kind && s.name === ref.name)) out.push(ref);
  }
  return out;
}

/** The volumes after a remount of the configMap and secret ones from `sources`, or the first that failed. */
export function remountVolumes(pod: Pod, volumes: MountedVolumes, sources: FetchedSources): { ok: true; volumes: MountedVolumes; changed: boolean } | { ok: false; volume: string; error: string } {
  const next = new Map(volumes);
  let changed = false;
  for (const v of pod.spec.volumes ?? []) {
    if (!v.configMap && !v.secret) continue;
    const r = mountOne(pod, v, sources, {});
    if (!r.ok) return { ok: false, volume: v.name, error: r.error };
    if (!sameFiles(volumes.get(v.name), r.files)) {
      next.set(v.name, r.files);
      changed = true;
    }
  }
  return { ok: true, volumes: next, changed };
}

function sameFiles(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>>): boolean {
  if (!a) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Rewrites a running container's view of its mounts after a remount, as the atomic writer swaps a
 * volume's ..data directory: files that went away are gone, new and changed ones appear at once.
 * subPath mounts and every other file (/etc/hosts...) stay as they are.
 */
export function applyRemount(files: Record<string, string>, c: Container, before: MountedVolumes, after: MountedVolumes): void {
  const old = containerFiles(c, before, false);
  const next = containerFiles(c, after, false);
  for (const path of Object.keys(old)) if (!(path in next)) delete files[path];
  Object.assign(files, next);
}
