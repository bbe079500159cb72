// What every kube-apiserver keeps in place besides serving requests: the `default/kubernetes`
// Service, through which pods reach the API (10.96.0.1:443, the first address of the service
// range), and its endpoints, one per live API server. Each replica holds a "master lease" in etcd
// (/registry/masterleases/<advertise IP>, TTL 15 s, renewed every 10 s) and every 10 s makes the
// `kubernetes` EndpointSlice list exactly the IPs with a live lease, so a replica that dies drops
// out of it within about 15 s. The writes go through the replica's own pipeline (the loopback
// client, as system:apiserver in system:masters), so admission allocates 10.96.0.1 like any IP.
// mirrors pkg/controlplane/controller/kubernetesservice/controller.go (RunKubernetesService,
// CreateOrUpdateMasterServiceIfNeeded), pkg/controlplane/reconcilers/lease.go (the lease endpoint
// reconciler: UpdateLease, ListLeases, ReconcileEndpoints) and reconcilers/endpointsadapter.go
// (the Endpoints it writes, labelled endpointslice.kubernetes.io/skip-mirror, then the EndpointSlice).
import type { KubeObject } from '../api/index.ts';
import type { EtcdClient } from '../etcd/index.ts';
import type { ApiRequest, ResponseCallback } from './request.ts';

export const KUBERNETES_SERVICE_NAME = 'kubernetes';
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
/** --endpoint-reconciler-type=lease: the TTL of a master lease, and how often it is renewed. */
export const MASTER_LEASE_TTL_SECONDS = 15;
export const ENDPOINT_INTERVAL_MS = 10_000;
export const MASTER_LEASES_PREFIX = '/registry/masterleases/';

const LOOPBACK = { clientCert: { commonName: 'system:apiserver', organizations: ['system:masters'] } };

export interface BootstrapControllerOptions {
  /** The replica's own pipeline. */
  server: { request(req: ApiRequest, cb: ResponseCallback): void };
  etcd: EtcdClient;
  clock: { every(intervalMs: number, fn: () => void, firstDelayMs?: number): { cancel(): void } };
  /** False once this incarnation died: late callbacks do nothing. */
  isLive(): boolean;
  /** --advertise-address and --secure-port. */
  advertiseIP: string;
  securePort: number;
}

/** The Service as the controller creates it. */
export function kubernetesService(securePort: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: KUBERNETES_SERVICE_NAME, namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: KUBERNETES_SERVICE_IP,
      clusterIPs: [KUBERNETES_SERVICE_IP],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      sessionAffinity: 'None',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: securePort }],
    },
  } as KubeObject;
}

/** The Endpoints doReconcile writes: one subset, the API servers' IPs and the https port. */
export function kubernetesEndpoints(ips: readonly string[], securePort: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: KUBERNETES_SERVICE_NAME, namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    // ListLeases gives the IPs in key order, which RepackSubsets keeps
    subsets: [{ addresses: [...ips].sort().map((ip) => ({ ip })), ports: [{ name: 'https', port: securePort, protocol: 'TCP' }] }],
  } as KubeObject;
}

/** endpointSliceFromEndpoints: one ready endpoint per API server IP, sorted. */
export function kubernetesEndpointSlice(ips: readonly string[], securePort: number): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: KUBERNETES_SERVICE_NAME, namespace: 'default', labels: { 'kubernetes.io/service-name': KUBERNETES_SERVICE_NAME } },
    addressType: 'IPv4',
    endpoints: [...ips].sort(compareIPs).map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', port: securePort, protocol: 'TCP' }],
  } as KubeObject;
}

function compareIPs(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The IPs of the endpoints a slice lists (to tell whether it must be rewritten). */
function sliceIPs(slice: KubeObject | undefined): string[] {
  const endpoints = (slice as { endpoints?: { addresses?: string[] }[] } | undefined)?.endpoints ?? [];
  return endpoints.flatMap((e) => e.addresses ?? []);
}

export function startBootstrapController(o: BootstrapControllerOptions): { stop(): void } {
  const request = (req: ApiRequest, cb: ResponseCallback): void => o.server.request({ ...req, credentials: LOOPBACK, userAgent: 'kube-apiserver' }, (res) => {
    if (o.isLive()) cb(res);
  });
  const tick = (): void => {
    ensureService(request, o.securePort);
    renewLease(o, () => listLeases(o, (ips) => reconcileEndpoints(request, ips, o.securePort, () => reconcileSlice(request, ips, o.securePort))));
  };
  const timer = o.clock.every(ENDPOINT_INTERVAL_MS, tick, 0);
  return { stop: () => timer.cancel() };
}

type Request = (req: ApiRequest, cb: ResponseCallback) => void;

/** CreateOrUpdateMasterServiceIfNeeded: create it when missing (a conflict with another replica is fine). */
function ensureService(request: Request, securePort: number): void {
  const ref = { group: '', resource: 'services', namespace: 'default' };
  request({ verb: 'get', ...ref, name: KUBERNETES_SERVICE_NAME }, (res) => {
    if (res.code !== 404) return;
    request({ verb: 'create', ...ref, body: kubernetesService(securePort) }, () => undefined);
  });
}

/** UpdateLease: this replica's key, bound to a fresh 15 s etcd lease. */
function renewLease(o: BootstrapControllerOptions, then: () => void): void {
  o.etcd.leaseGrant(MASTER_LEASE_TTL_SECONDS, (granted) => {
    if (!o.isLive() || !granted.ok) return;
    const value = JSON.stringify({ kind: 'Endpoints', apiVersion: 'v1', metadata: { name: o.advertiseIP, creationTimestamp: null }, subsets: [{ addresses: [{ ip: o.advertiseIP }] }] });
    o.etcd.put({ key: `${MASTER_LEASES_PREFIX}${o.advertiseIP}`, value, lease: granted.value.id }, (put) => {
      if (o.isLive() && put.ok) then();
    });
  });
}

/** ListLeases: the IPs of every replica whose lease is alive. */
function listLeases(o: BootstrapControllerOptions, then: (ips: string[]) => void): void {
  const end = `${MASTER_LEASES_PREFIX.slice(0, -1)}0`; // prefixEnd of ".../masterleases/"
  o.etcd.range({ key: MASTER_LEASES_PREFIX, rangeEnd: end }, (res) => {
    if (!o.isLive() || !res.ok) return;
    then(res.value.kvs.map((kv) => kv.key.slice(MASTER_LEASES_PREFIX.length)));
  });
}

/** doReconcile: the Endpoints first (created, or rewritten when its IPs are not the live ones), then the slice. */
function reconcileEndpoints(request: Request, ips: string[], securePort: number, then: () => void): void {
  const ref = { group: '', resource: 'endpoints', namespace: 'default' };
  const want = kubernetesEndpoints(ips, securePort);
  const ipsOf = (e: KubeObject | undefined): string[] =>
    ((e as { subsets?: { addresses?: { ip: string }[] }[] } | undefined)?.subsets ?? []).flatMap((ss) => (ss.addresses ?? []).map((a) => a.ip));
  request({ verb: 'get', ...ref, name: KUBERNETES_SERVICE_NAME }, (res) => {
    if (res.code === 404) return request({ verb: 'create', ...ref, body: want }, () => then());
    if (res.code !== 200) return then();
    const have = res.body as KubeObject;
    if (JSON.stringify(ipsOf(have)) === JSON.stringify(ipsOf(want))) return then();
    request({ verb: 'update', ...ref, name: KUBERNETES_SERVICE_NAME, body: { ...want, metadata: { ...want.metadata, resourceVersion: have.metadata.resourceVersion } } }, () => then());
  });
}

/** ReconcileEndpoints: rewrite the slice only when its IPs are not the live ones. */
function reconcileSlice(request: Request, ips: string[], securePort: number): void {
  const ref = { group: 'discovery.k8s.io', resource: 'endpointslices', namespace: 'default' };
  const want = kubernetesEndpointSlice(ips, securePort);
  request({ verb: 'get', ...ref, name: KUBERNETES_SERVICE_NAME }, (res) => {
    if (res.code === 404) return request({ verb: 'create', ...ref, body: want }, () => undefined);
    if (res.code !== 200) return;
    const have = res.body as KubeObject;
    if (JSON.stringify(sliceIPs(have)) === JSON.stringify(sliceIPs(want))) return;
    request({ verb: 'update', ...ref, name: KUBERNETES_SERVICE_NAME, body: { ...want, metadata: { ...want.metadata, resourceVersion: have.metadata.resourceVersion } } }, () => undefined);
  });
}
