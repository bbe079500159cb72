// The default ServiceCIDR: each API server makes sure the `kubernetes` ServiceCIDR (its
// --service-cluster-ip-range, 10.96.0.0/12) exists and is Ready, so `kubectl get servicecidrs`
// shows where cluster IPs come from.
// mirrors pkg/controlplane/controller/defaultservicecidr/default_servicecidr_controller.go (create
// when missing; set the Ready condition, with no reason, when the spec matches this server's range).
// Upstream re-checks every 10 s; ours runs once per API server start, which is when it can be missing
// (a fresh cluster, or an etcd restore from a snapshot taken before it existed).
import type { ServiceCIDR } from '../api/index.ts';
import { rfc3339 } from '../api/index.ts';
import { LOOPBACK_CREDENTIALS, type Loopback } from './service-ips.ts';

export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';
const REF = { group: 'networking.k8s.io', resource: 'servicecidrs', name: DEFAULT_SERVICE_CIDR_NAME };

export function ensureDefaultServiceCIDR(server: Loopback, cidr: string, nowMs: () => number, isLive: () => boolean): void {
  const request: Loopback['request'] = (req, cb) => server.request({ ...req, credentials: LOOPBACK_CREDENTIALS, userAgent: 'kube-apiserver' }, (res) => {
    if (isLive()) cb(res);
  });
  request({ verb: 'get', ...REF }, (res) => {
    if (res.code === 200) return markReady(res.body as ServiceCIDR);
    if (res.code !== 404) return;
    const body: ServiceCIDR = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: DEFAULT_SERVICE_CIDR_NAME }, spec: { cidrs: [cidr] } };
    request({ verb: 'create', group: REF.group, resource: REF.resource, body }, (created) => {
      if (created.code === 201) markReady(created.body as ServiceCIDR);
    });
  });
  function markReady(current: ServiceCIDR): void {
    if ((current.status?.conditions ?? []).some((c) => c.type === 'Ready')) return;
    if (JSON.stringify(current.spec?.cidrs ?? []) !== JSON.stringify([cidr])) return;
    const status = { conditions: [{ type: 'Ready', status: 'True' as const, lastTransitionTime: rfc3339(nowMs()), reason: '', message: 'Kubernetes default Service CIDR is ready' }] };
    request({ verb: 'update', ...REF, subresource: 'status', body: { ...current, status } }, () => undefined);
  }
}
