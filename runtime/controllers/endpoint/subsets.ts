// From a Service and its pods to the subsets of its core/v1 Endpoints. Pure functions.
// mirrors pkg/controller/endpoint/endpoints_controller.go (syncService's loop, addEndpointSubset,
// podToEndpointAddressForService, endpointPortFromServicePort, truncateEndpoints),
// staging/src/k8s.io/endpointslice/util (ShouldPodBeInEndpoints, ShouldSetHostname) and
// pkg/api/v1/endpoints/util.go (RepackSubsets, LessEndpointAddress).
// Not reproduced: upstream orders the ports of a subset, and the subsets themselves, by an md5 of
// their spew dump; here ports go by name then number, and subsets by their first address. A
// Service whose pods all serve the same ports has one subset, whose order is upstream's.
import type { CoreEndpointPort, EndpointAddress, EndpointSubset, Pod, Service } from '../../api/index.ts';
import { isPodReady } from '../controller-utils.ts';
import { findPort } from '../endpointslice/index.ts';

/** maxCapacity: more addresses than this are truncated, and the Endpoints says so. */
export const MAX_ENDPOINTS_CAPACITY = 1000;
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
export const LAST_CHANGE_TRIGGER_TIME_ANNOTATION = 'endpoints.kubernetes.io/last-change-trigger-time';

/** ShouldPodBeInEndpoints(pod, includeTerminating): has an IP, has not finished, is not going (unless included). */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  return includeTerminating || pod.metadata.deletionTimestamp === undefined;
}

/** podToEndpointAddressForService, with the hostname when ShouldSetHostname says so. */
export function podToEndpointAddress(pod: Pod, service: Service): EndpointAddress {
  const address: EndpointAddress = { ip: pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? '' };
  const hostname = pod.spec?.hostname;
  if (hostname && pod.spec?.subdomain === service.metadata.name && pod.metadata.namespace === service.metadata.namespace) address.hostname = hostname;
  address.nodeName = pod.spec?.nodeName ?? '';
  address.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
  return address;
}

/**
 * syncService's loop: one subset per (pod, service port) it can serve, ready or not (a headless
 * Service without ports gets port-less subsets), then RepackSubsets.
 */
export function computeSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const publishNotReady = service.spec.publishNotReadyAddresses === true;
  const raw: EndpointSubset[] = [];
  const add = (pod: Pod, address: EndpointAddress, port: CoreEndpointPort | undefined): void => {
    const ports = port ? [port] : [];
    raw.push(publishNotReady || isPodReady(pod) ? { addresses: [address], ports } : { notReadyAddresses: [address], ports });
  };
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podToEndpointAddress(pod, service);
    const servicePorts = service.spec.ports ?? [];
    if (servicePorts.length === 0) {
      if (service.spec.clusterIP === 'None') add(pod, address, undefined);
      continue;
    }
    for (const sp of servicePorts) {
      const portNum = findPort(pod, sp);
      if (portNum === undefined) continue; // "Failed to find port for service"
      const port: CoreEndpointPort = { ...(sp.name ? { name: sp.name } : {}), port: portNum, protocol: sp.protocol ?? 'TCP' };
      if (sp.appProtocol) port.appProtocol = sp.appProtocol;
      add(pod, address, port);
    }
  }
  return repackSubsets(raw);
}

const addressKey = (a: EndpointAddress): string => `${a.ip}/${a.targetRef?.uid ?? ''}`;
const portKey = (p: CoreEndpointPort | undefined): string => (p ? `${p.name ?? ''}/${p.port}/${p.protocol ?? ''}/${p.appProtocol ?? ''}` : '');

/**
 * RepackSubsets: every address offering exactly the same ports shares one subset; an address
 * both ready and not ready for a port counts as ready.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  const ports = new Map<string, CoreEndpointPort | undefined>();
  // port -> address -> ready
  const byPort = new Map<string, Map<string, boolean>>();
  const note = (port: CoreEndpointPort | undefined, a: EndpointAddress, ready: boolean): void => {
    const ak = addressKey(a);
    if (!addresses.has(ak)) addresses.set(ak, a);
    const pk = portKey(port);
    if (!ports.has(pk)) ports.set(pk, port);
    let set = byPort.get(pk);
    if (!set) byPort.set(pk, (set = new Map()));
    if (set.get(ak) !== true) set.set(ak, ready);
  };
  for (const ss of subsets) {
    for (const port of (ss.ports ?? []).length === 0 ? [undefined] : ss.ports!) {
      for (const a of ss.addresses ?? []) note(port, a, true);
      for (const a of ss.notReadyAddresses ?? []) note(port, a, false);
    }
  }
  // group the ports by the exact set of (address, ready) they map to
  const groups = new Map<string, { set: Map<string, boolean>; ports: CoreEndpointPort[] }>();
  for (const [pk, set] of byPort) {
    const id = [...set].map(([a, r]) => `${a}=${r}`).sort().join(',');
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { set, ports: [] }));
    const port = ports.get(pk);
    if (port) g.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const { set, ports: groupPorts } of groups.values()) {
    const ready = [...set].filter(([, r]) => r).map(([a]) => addresses.get(a)!).sort(compareAddresses);
    const notReady = [...set].filter(([, r]) => !r).map(([a]) => addresses.get(a)!).sort(compareAddresses);
    const ss: EndpointSubset = {};
    if (ready.length > 0) ss.addresses = ready;
    if (notReady.length > 0) ss.notReadyAddresses = notReady;
    if (groupPorts.length > 0) ss.ports = groupPorts.sort(comparePorts);
    out.push(ss);
  }
  return out.sort((a, b) => compareAddresses(firstAddress(a), firstAddress(b)));
}

function firstAddress(ss: EndpointSubset): EndpointAddress {
  return ss.addresses?.[0] ?? ss.notReadyAddresses?.[0] ?? { ip: '' };
}

/** LessEndpointAddress: the IPs as text (so "10.244.1.10" < "10.244.1.2"), then the target's uid. */
export function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

function comparePorts(a: CoreEndpointPort, b: CoreEndpointPort): number {
  const na = a.name ?? '';
  const nb = b.name ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.port - b.port;
}

/**
 * truncateEndpoints: over maxCapacity addresses, keep the ready ones first and share what room is
 * left among the subsets in proportion to their size (the last one gets the remainder).
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const ss of subsets) {
    totalReady += ss.addresses?.length ?? 0;
    totalNotReady += ss.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= MAX_ENDPOINTS_CAPACITY) return false;
  const truncateReady = totalReady > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  subsets.forEach((ss, i) => {
    const inSubset = (truncateReady ? ss.addresses?.length : ss.notReadyAddresses?.length) ?? 0;
    const allowed = i < subsets.length - 1 ? Math.ceil(max * (inSubset / numTotal)) : canBeAdded;
    if (truncateReady) {
      delete ss.notReadyAddresses;
      if (ss.addresses && allowed < ss.addresses.length) ss.addresses = ss.addresses.slice(0, allowed);
      canBeAdded -= ss.addresses?.length ?? 0;
    } else {
      if (ss.notReadyAddresses && allowed < ss.notReadyAddresses.length) ss.notReadyAddresses = ss.notReadyAddresses.slice(0, allowed);
      canBeAdded -= ss.notReadyAddresses?.length ?? 0;
    }
  });
  return true;
}
