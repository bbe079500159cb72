// From a Service and its pods to the endpoints and ports an EndpointSlice carries.
// mirrors pkg/controller/endpointslice/util/controller_utils.go and
// staging/src/k8s.io/endpointslice/utils.go (podToEndpoint, getEndpointPorts,
// ShouldPodBeInEndpoints, setEndpointSliceLabels) and pkg/api/v1/pod/util.go (FindPort).
import type { Endpoint, EndpointPort, Pod, Service } from '../../api/index.ts';
import { isTombstone, type SharedInformer } from '../../client/index.ts';
import { isPodReady, keyOf, labelsMatchSet } from '../controller-utils.ts';

export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

/** ShouldPodBeInEndpoints(pod, includeTerminating=true): has an IP and has not finished. */
export function shouldPodBeInEndpoints(pod: Pod): boolean {
  if (!pod.status?.podIP) return false;
  const phase = pod.status.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** podToEndpoint: ready only when serving and not terminating (unless publishNotReadyAddresses). */
export function podToEndpoint(pod: Pod, service: Service): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = service.spec.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: Endpoint = {
    addresses: [pod.status?.podIP ?? ''],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
  };
  const hostname = pod.spec?.hostname;
  if (hostname && pod.spec?.subdomain === service.metadata.name && pod.metadata.namespace === service.metadata.namespace) ep.hostname = hostname;
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  return ep;
}

/** FindPort: a numeric targetPort as is, a named one from the pod's container ports (same protocol). */
export function findPort(pod: Pod, port: Service['spec']['ports'] extends (infer P)[] | undefined ? P : never): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  const protocol = port.protocol ?? 'TCP';
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  if (/^[0-9]+$/.test(target)) return Number(target);
  return undefined;
}

/** getEndpointPorts: one EndpointPort per service port the pod can serve. */
export function endpointPorts(service: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of service.spec.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue; // upstream logs "Failed to find port for service" and skips it
    const ep: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) ep.appProtocol = sp.appProtocol;
    out.push(ep);
  }
  return out;
}

/** setEndpointSliceLabels: the service's own labels (minus reserved ones) plus ours. */
export function sliceLabels(service: Service): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata.labels ?? {})) {
    if (k !== LABEL_SERVICE_NAME && k !== LABEL_MANAGED_BY) labels[k] = v;
  }
  if (service.spec.clusterIP === 'None') labels[LABEL_HEADLESS] = '';
  labels[LABEL_SERVICE_NAME] = service.metadata.name ?? '';
  labels[LABEL_MANAGED_BY] = CONTROLLER_NAME;
  return labels;
}

/** JSON with sorted keys: a stable identity for comparing endpoints, ports and labels. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The event handlers both the Endpoints and the EndpointSlice controller register: a Service that
 * is added, changed or deleted queues its own key; a pod that is added, changed (a new
 * resourceVersion) or deleted queues every Service in its namespace whose selector matches it now
 * or matched it before (GetPodServiceMemberships).
 */
export function queueServiceChanges(queue: { add(key: string): void }, services: SharedInformer<Service>, pods: SharedInformer<Pod>): void {
  services.addEventHandler({
    onAdd: (s) => queue.add(keyOf(s)),
    onUpdate: (_old, s) => queue.add(keyOf(s)),
    onDelete: (obj) => queue.add(keyOf(isTombstone(obj) ? obj.obj : obj)),
  });
  const podChanged = (pod: Pod, old?: Pod): void => {
    for (const svc of services.lister.listInNamespace(pod.metadata.namespace ?? '')) {
      const selector = svc.spec.selector;
      if (!selector) continue;
      const matches = (p: Pod): boolean => labelsMatchSet(selector, p.metadata.labels);
      if (matches(pod) || (old && matches(old))) queue.add(keyOf(svc));
    }
  };
  pods.addEventHandler({
    onAdd: (p) => podChanged(p),
    onUpdate: (old, p) => {
      if (old.metadata.resourceVersion !== p.metadata.resourceVersion) podChanged(p, old);
    },
    onDelete: (obj) => podChanged(isTombstone(obj) ? obj.obj : obj),
  });
}
