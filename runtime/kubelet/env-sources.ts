// A container's environment from its env and envFrom (kubelet_pods.go makeEnvironmentVariables):
// envFrom's ConfigMaps and Secrets first, each key with its prefix, then env in order, a later
// variable replacing an earlier one; values may refer to variables defined before them as
// $(NAME) ($$ escapes a dollar, third_party/forked/golang/expansion). A missing ConfigMap, Secret
// or key stops the container from being created (CreateContainerConfigError), unless the
// reference is optional. The kubelet reads each referenced object with a GET when it creates the
// container (its Get change-detection strategy), so a change shows in the next container.
import { containerResourceValue, decodeBase64Text, podFieldPathValue, type ConfigMap, type Container, type Pod, type Secret } from '../api/index.ts';
import type { RestClient } from '../client/index.ts';

export type SourceKind = 'ConfigMap' | 'Secret';
/** What a GET of each referenced object found: the object, or null for NotFound. */
export type FetchedSources = ReadonlyMap<string, ConfigMap | Secret | null>;

const keyOf = (kind: SourceKind, name: string): string => `${kind}/${name}`;

/** The ConfigMaps and Secrets a container's environment refers to. */
export function referencedSources(c: Container): { kind: SourceKind; name: string }[] {
  const out: { kind: SourceKind; name: string }[] = [];
  const add = (kind: SourceKind, name: string | undefined): void => {
    if (name !== undefined && !out.some((s) => s.kind === kind && s.name === name)) out.push({ kind, name });
  };
  for (const f of c.envFrom ?? []) {
    add('ConfigMap', f.configMapRef?.name);
    add('Secret', f.secretRef?.name);
  }
  for (const e of c.env ?? []) {
    add('ConfigMap', e.valueFrom?.configMapKeyRef?.name);
    add('Secret', e.valueFrom?.secretKeyRef?.name);
  }
  return out;
}

/** GETs every referenced object; `done` gets them, or the error of a GET that failed for another reason than NotFound. */
export function fetchSources(client: RestClient, namespace: string, refs: readonly { kind: SourceKind; name: string }[], done: (r: { ok: true; sources: FetchedSources } | { ok: false; error: string }) => void): void {
  const sources = new Map<string, ConfigMap | Secret | null>();
  let pending = refs.length;
  let failed = false;
  if (pending === 0) return done({ ok: true, sources });
  for (const ref of refs) {
    const resource = ref.kind === 'ConfigMap' ? 'configmaps' : 'secrets';
    client.request({ verb: 'get', group: '', resource, namespace, name: ref.name }, (res) => {
      if (failed) return;
      if (res.code === 200) sources.set(keyOf(ref.kind, ref.name), res.body as ConfigMap | Secret);
      else if (res.code === 404) sources.set(keyOf(ref.kind, ref.name), null);
      else {
        failed = true;
        const message = typeof res.body === 'object' && res.body !== null && 'message' in res.body ? String(res.body.message) : `code ${res.code}`;
        return done({ ok: false, error: message });
      }
      if (--pending === 0) done({ ok: true, sources });
    });
  }
}

/** The data of a ConfigMap or (decoded) Secret: what the environment and the volumes read. */
export function sourceData(kind: SourceKind, obj: ConfigMap | Secret): Record<string, string> {
  if (kind === 'ConfigMap') return { ...(obj as ConfigMap).data };
  return Object.fromEntries(Object.entries((obj as Secret).data ?? {}).map(([k, v]) => [k, decodeBase64Text(v)]));
}

/** The API server's NotFound text for a referenced object, as the kubelet reports it. */
export const sourceNotFound = (kind: SourceKind, name: string): string => `${kind === 'ConfigMap' ? 'configmap' : 'secret'} "${name}" not found`;

/** $(NAME) from the variables defined so far; $$ is a literal $; an unknown reference stays as written. */
function expand(value: string, defined: ReadonlyMap<string, string>): string {
  return value.replace(/\$\$|\$\(([^)]*)\)/g, (m, name: string | undefined) => (m === '$$' ? '$' : defined.get(name ?? '') ?? m));
}

/**
 * The container's variables in the order they were defined, or why the container cannot be made.
 * `podIP` is the sandbox's (the status may not carry it yet); `allocatable` is the node's, which
 * a resourceFieldRef to a limit the container does not set reads.
 */
export function resolveEnv(pod: Pod, c: Container, sources: FetchedSources, podIP?: string, allocatable?: Readonly<Record<string, string>>): { ok: true; env: [string, string][] } | { ok: false; error: string } {
  const ns = pod.metadata.namespace ?? 'default';
  const vars = new Map<string, string>();
  for (const f of c.envFrom ?? []) {
    const ref = f.configMapRef ?? f.secretRef;
    const kind: SourceKind = f.configMapRef ? 'ConfigMap' : 'Secret';
    if (!ref?.name) continue;
    const obj = sources.get(keyOf(kind, ref.name));
    if (!obj) {
      if (ref.optional === true) continue;
      return { ok: false, error: sourceNotFound(kind, ref.name) };
    }
    for (const [k, v] of Object.entries(sourceData(kind, obj)).sort(([a], [b]) => (a < b ? -1 : 1))) vars.set(`${f.prefix ?? ''}${k}`, v);
  }
  for (const e of c.env ?? []) {
    const from = e.valueFrom;
    if (!from) {
      vars.set(e.name, expand(e.value ?? '', vars));
      continue;
    }
    const keyRef = from.configMapKeyRef ?? from.secretKeyRef;
    if (keyRef) {
      const kind: SourceKind = from.configMapKeyRef ? 'ConfigMap' : 'Secret';
      const name = keyRef.name ?? '';
      const obj = sources.get(keyOf(kind, name));
      if (!obj) {
        if (keyRef.optional === true) continue;
        return { ok: false, error: sourceNotFound(kind, name) };
      }
      const data = sourceData(kind, obj);
      if (!(keyRef.key in data)) {
        if (keyRef.optional === true) continue;
        return { ok: false, error: `couldn't find key ${keyRef.key} in ${kind} ${ns}/${name}` };
      }
      vars.set(e.name, data[keyRef.key]!);
    } else if (from.fieldRef) {
      vars.set(e.name, from.fieldRef.fieldPath === 'status.podIP' && podIP ? podIP : podFieldPathValue(pod, from.fieldRef.fieldPath));
    } else if (from.resourceFieldRef) {
      const v = containerResourceValue(from.resourceFieldRef, pod, c, allocatable);
      if (!v.ok) return { ok: false, error: v.error };
      vars.set(e.name, v.value);
    }
  }
  return { ok: true, env: [...vars] };
}
