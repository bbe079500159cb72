// What the EndpointSlice mirroring controller wants for one Endpoints: one slice per subset (its
// addresses ready, its notReadyAddresses not), labelled for the Service and owned by the
// Endpoints, and which existing mirrored slices to update, create or delete. Pure functions.
// mirrors pkg/controller/endpointslicemirroring/reconciler.go (reconcile), reconciler_helpers.go
// and utils.go (shouldMirror, newEndpointSlice, addressToEndpoint, cloneAndRemoveKeys).
import type { Endpoint, EndpointPort, EndpointSlice, Endpoints, OwnerReference } from '../../api/index.ts';
import { canonical, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, type SliceChanges } from '../endpointslice/index.ts';

export const MIRRORING_CONTROLLER_NAME = 'endpointslicemirroring-controller.k8s.io';
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
/** --mirroring-max-endpoints-per-subset default: addresses past this many are not mirrored. */
export const MAX_ENDPOINTS_PER_SUBSET = 1000;

/** shouldMirror: not labelled skip-mirror and not a leader-election lock. */
export function shouldMirror(ep: Endpoints | undefined): ep is Endpoints {
  if (!ep) return false;
  if (ep.metadata.labels?.[SKIP_MIRROR_LABEL] === 'true') return false;
  return ep.metadata.annotations?.[LEADER_ANNOTATION] === undefined;
}

export type MirrorChanges = SliceChanges;

/** One desired slice per subset with addresses, keyed by its ports. */
export function desiredSlices(ep: Endpoints): EndpointSlice[] {
  const name = ep.metadata.name ?? '';
  const owner: OwnerReference = { apiVersion: 'v1', kind: 'Endpoints', name, uid: ep.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(ep.metadata.labels ?? {})) if (k !== LABEL_MANAGED_BY && k !== LABEL_SERVICE_NAME) labels[k] = v;
  labels[LABEL_SERVICE_NAME] = name;
  labels[LABEL_MANAGED_BY] = MIRRORING_CONTROLLER_NAME;
  const annotations: Record<string, string> = { ...(ep.metadata.annotations ?? {}) };
  delete annotations['endpoints.kubernetes.io/last-change-trigger-time'];
  delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
  const out: EndpointSlice[] = [];
  for (const ss of ep.subsets ?? []) {
    const endpoints: Endpoint[] = [];
    const add = (a: NonNullable<typeof ss.addresses>[number], ready: boolean): void => {
      if (endpoints.length >= MAX_ENDPOINTS_PER_SUBSET) return;
      const e: Endpoint = { addresses: [a.ip], conditions: { ready } };
      if (a.hostname) e.hostname = a.hostname;
      if (a.targetRef) e.targetRef = a.targetRef;
      if (a.nodeName) e.nodeName = a.nodeName;
      endpoints.push(e);
    };
    for (const a of ss.addresses ?? []) add(a, true);
    for (const a of ss.notReadyAddresses ?? []) add(a, false);
    if (endpoints.length === 0) continue;
    const ports: EndpointPort[] = (ss.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    out.push({
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
      metadata: {
        generateName: `${name}-`, namespace: ep.metadata.namespace ?? 'default', labels: { ...labels },
        ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}), ownerReferences: [owner],
      },
      addressType: 'IPv4', endpoints, ports,
    });
  }
  return out;
}

/**
 * reconcile: an existing mirrored slice with the same ports is kept (rewritten if its endpoints,
 * labels or annotations differ); missing ones are created, leftovers deleted.
 */
export function reconcileMirrored(ep: Endpoints, existing: readonly EndpointSlice[]): MirrorChanges {
  const changes: MirrorChanges = { create: [], update: [], delete: [] };
  const byPorts = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const key = canonical(s.ports ?? []);
    byPorts.set(key, [...(byPorts.get(key) ?? []), s]);
  }
  for (const want of desiredSlices(ep)) {
    const key = canonical(want.ports ?? []);
    const have = byPorts.get(key)?.shift();
    if (!have) {
      changes.create.push(want);
      continue;
    }
    const same = canonical(have.endpoints) === canonical(want.endpoints)
      && canonical(have.metadata.labels ?? {}) === canonical(want.metadata.labels ?? {})
      && canonical(have.metadata.annotations ?? {}) === canonical(want.metadata.annotations ?? {});
    if (!same) {
      const metadata: EndpointSlice['metadata'] = { ...have.metadata, labels: want.metadata.labels! };
      if (want.metadata.annotations) metadata.annotations = want.metadata.annotations;
      else delete metadata.annotations;
      changes.update.push({ ...have, metadata, endpoints: want.endpoints });
    }
  }
  for (const rest of byPorts.values()) changes.delete.push(...rest);
  return changes;
}
