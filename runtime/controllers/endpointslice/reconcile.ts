// The EndpointSlice reconcile decision as a pure function: given a Service, its pods and the
// slices this controller already manages for it, which slices to create, update and delete.
// Endpoints are grouped by port mapping (pods may resolve a named targetPort differently); each
// group keeps unchanged slices untouched, rewrites slices whose endpoints changed, fills slices
// being updated, then the fullest unchanged slice that fits, then new slices of at most
// maxEndpointsPerSlice. A Service without endpoints keeps one empty placeholder slice.
// mirrors pkg/controller/endpointslice/reconciler.go (reconcile, reconcileByPortMapping,
// placeholder slice) and utils.go (getSliceToFill, newEndpointSlice).
import type { Endpoint, EndpointPort, EndpointSlice, OwnerReference, Pod, Service } from '../../api/index.ts';
import { canonical, endpointPorts, podToEndpoint, shouldPodBeInEndpoints, sliceLabels } from './endpoints.ts';
import type { SliceChanges } from './slice-writer.ts';

export function reconcileEndpointSlices(service: Service, pods: readonly Pod[], existing: readonly EndpointSlice[], maxEndpointsPerSlice: number): SliceChanges {
  const desired = new Map<string, { ports: EndpointPort[]; endpoints: Map<string, Endpoint> }>();
  for (const pod of [...pods].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
    if (!shouldPodBeInEndpoints(pod)) continue;
    const ports = endpointPorts(service, pod);
    const key = canonical(ports);
    let group = desired.get(key);
    if (!group) desired.set(key, (group = { ports, endpoints: new Map() }));
    const ep = podToEndpoint(pod, service);
    group.endpoints.set(endpointKey(ep), ep);
  }
  const labels = sliceLabels(service);
  const existingByPorts = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const key = canonical(s.ports ?? []);
    existingByPorts.set(key, [...(existingByPorts.get(key) ?? []), s]);
  }
  const changes: SliceChanges = { create: [], update: [], delete: [] };
  for (const [key, group] of desired) {
    const r = reconcilePortMapping(service, group.ports, group.endpoints, existingByPorts.get(key) ?? [], labels, maxEndpointsPerSlice);
    changes.create.push(...r.create);
    changes.update.push(...r.update);
    changes.delete.push(...r.delete);
  }
  for (const [key, slices] of existingByPorts) if (!desired.has(key)) changes.delete.push(...slices);
  // a Service with no endpoints at all keeps one empty placeholder slice
  if (existing.length === changes.delete.length && changes.create.length === 0) {
    const placeholder = newSlice(service, [], labels);
    const only = changes.delete[0];
    if (changes.delete.length === 1 && only && (only.endpoints ?? []).length === 0 && (only.ports ?? []).length === 0 && canonical(only.metadata.labels ?? {}) === canonical(labels)) {
      changes.delete = [];
    } else changes.create.push(placeholder);
  }
  return changes;
}

function reconcilePortMapping(
  service: Service, ports: EndpointPort[], desired: Map<string, Endpoint>, existing: readonly EndpointSlice[],
  labels: Record<string, string>, max: number,
): SliceChanges {
  const changes: SliceChanges = { create: [], update: [], delete: [] };
  const remaining = new Map(desired);
  const unchanged: EndpointSlice[] = [];
  for (const slice of existing) {
    const kept: Endpoint[] = [];
    let updated = false;
    for (const ep of slice.endpoints ?? []) {
      const key = endpointKey(ep);
      const want = remaining.get(key);
      if (!want) continue;
      kept.push(want);
      if (canonical(want) !== canonical(ep)) updated = true;
      remaining.delete(key);
    }
    const labelsChanged = canonical(slice.metadata.labels ?? {}) !== canonical(labels);
    if (updated || kept.length !== (slice.endpoints ?? []).length) {
      if (kept.length === 0) changes.delete.push(slice);
      else changes.update.push({ ...slice, metadata: { ...slice.metadata, labels }, endpoints: kept });
    } else if (labelsChanged) changes.update.push({ ...slice, metadata: { ...slice.metadata, labels } });
    else unchanged.push(slice);
  }
  const pending = [...remaining.values()];
  // fill the slices we are updating anyway
  for (const slice of changes.update) {
    while (pending.length > 0 && slice.endpoints.length < max) slice.endpoints = [...slice.endpoints, pending.shift()!];
  }
  while (pending.length > 0) {
    const fit = pending.length < max ? sliceToFill(unchanged, pending.length, max) : undefined;
    const slice = fit ? { ...fit, metadata: { ...fit.metadata }, endpoints: [...fit.endpoints] } : newSlice(service, ports, labels);
    while (pending.length > 0 && slice.endpoints.length < max) slice.endpoints.push(pending.shift()!);
    if (fit) {
      unchanged.splice(unchanged.indexOf(fit), 1);
      changes.update.push(slice);
    } else changes.create.push(slice);
  }
  return changes;
}

/** getSliceToFill: the fullest slice that still has room for all n endpoints. */
function sliceToFill(slices: readonly EndpointSlice[], n: number, max: number): EndpointSlice | undefined {
  let best: EndpointSlice | undefined;
  for (const s of slices) {
    if (s.endpoints.length + n <= max && (!best || s.endpoints.length > best.endpoints.length)) best = s;
  }
  return best;
}

/** newEndpointSlice: generateName "<service>-", controller reference to the Service. */
function newSlice(service: Service, ports: EndpointPort[], labels: Record<string, string>): EndpointSlice {
  const owner: OwnerReference = { apiVersion: 'v1', kind: 'Service', name: service.metadata.name ?? '', uid: service.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { generateName: `${service.metadata.name ?? ''}-`, namespace: service.metadata.namespace ?? 'default', labels: { ...labels }, ownerReferences: [owner] },
    addressType: 'IPv4', endpoints: [], ports: ports.map((p) => ({ ...p })),
  };
}

/** The identity of an endpoint across syncs: its pod (or its address when it has none). */
function endpointKey(ep: Endpoint): string {
  return ep.targetRef ? `${ep.targetRef.namespace ?? ''}/${ep.targetRef.name ?? ''}` : (ep.addresses[0] ?? '');
}
