// kubectl describe for deployments, replica sets, services and namespaces, plus a generic
// fallback (nodes: node.ts). mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
// (DeploymentDescriber, DaemonSetDescriber, ReplicaSetDescriber, ServiceDescriber,
// NamespaceDescriber, GenericDescriber).
import type {
  CoreEvent,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Endpoints,
  KubeObject,
  Lease,
  LimitRange,
  Namespace,
  Pod,
  ReplicaSet,
  ResourceQuota,
  Service,
} from '../../../api/index.ts';
import { formatLabelSelector } from '../../../api/index.ts';
import { writeEvents } from './events.ts';
import { controllerOf, writePodTemplate } from './pod.ts';
import { writeNamespaceLimitRanges, writeNamespaceQuotas } from './quota.ts';
import {
  LEVEL_0,
  LEVEL_1,
  LEVEL_2,
  PrefixWriter,
  rfc1123z,
  writeAnnotations,
  writeLabels,
} from './writer.ts';

/** Objects a describer needs besides the object itself (fetched by the describe command). */
export interface Related {
  events: CoreEvent[];
  replicaSets?: ReplicaSet[];
  pods?: Pod[];
  endpointSlices?: EndpointSlice[];
  lease?: Lease;
  /** A namespace's ResourceQuotas and LimitRanges. */
  quotas?: ResourceQuota[];
  limitRanges?: LimitRange[];
}

function header(w: PrefixWriter, obj: KubeObject, namespaced: boolean): void {
  w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
  if (namespaced) w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
}

const rsSummary = (rs: ReplicaSet): string =>
  `${rs.metadata.name ?? ''} (${rs.status?.replicas ?? 0}/${rs.spec.replicas ?? 0} replicas created)`;

export function describeDeployment(d: Deployment, related: Related, nowMs: number): string {
  const w = new PrefixWriter();
  const s = d.status ?? {};
  header(w, d, true);
  w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(d.metadata.creationTimestamp)}\n`);
  writeLabels(w, 'Labels', d.metadata.labels);
  writeAnnotations(w, 'Annotations', d.metadata.annotations);
  w.write(LEVEL_0, `Selector:\t${formatLabelSelector(d.spec.selector)}\n`);
  w.write(
    LEVEL_0,
    `Replicas:\t${d.spec.replicas ?? 1} desired | ${s.updatedReplicas ?? 0} updated | ${s.replicas ?? 0} total | ${s.availableReplicas ?? 0} available | ${s.unavailableReplicas ?? 0} unavailable\n`,
  );
  const strategy = d.spec.strategy?.type ?? 'RollingUpdate';
  w.write(LEVEL_0, `StrategyType:\t${strategy}\n`);
  w.write(LEVEL_0, `MinReadySeconds:\t${d.spec.minReadySeconds ?? 0}\n`);
  if (strategy === 'RollingUpdate') {
    const ru = d.spec.strategy?.rollingUpdate ?? {};
    w.write(
      LEVEL_0,
      `RollingUpdateStrategy:\t${ru.maxUnavailable ?? '25%'} max unavailable, ${ru.maxSurge ?? '25%'} max surge\n`,
    );
  }
  writePodTemplate(w, d.spec.template);
  if (s.conditions?.length) {
    w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(LEVEL_1, '----\t------\t------\n');
    for (const c of s.conditions) w.write(LEVEL_1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  const owned = (related.replicaSets ?? []).filter((rs) =>
    (rs.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === d.metadata.uid),
  );
  const revision = d.metadata.annotations?.['deployment.kubernetes.io/revision'];
  const current = owned.find(
    (rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === revision,
  );
  const old = owned.filter(
    (rs) => rs !== current && (rs.spec.replicas ?? 0) + (rs.status?.replicas ?? 0) > 0,
  );
  w.write(LEVEL_0, `OldReplicaSets:\t${old.length ? old.map(rsSummary).join(', ') : '<none>'}\n`);
  w.write(LEVEL_0, `NewReplicaSet:\t${current ? rsSummary(current) : '<none>'}\n`);
  writeEvents(w, related.events, nowMs);
  return w.toString();
}

/** getPodStatusForController: the phases of the pods the controller owns. */
function writePodsStatus(w: PrefixWriter, all: readonly Pod[] | undefined, owner: KubeObject): void {
  const pods = (all ?? []).filter((p) =>
    (p.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === owner.metadata.uid),
  );
  const count = (phase: string): number => pods.filter((p) => p.status?.phase === phase).length;
  w.write(
    LEVEL_0,
    `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`,
  );
}

export function describeReplicaSet(rs: ReplicaSet, related: Related, nowMs: number): string {
  const w = new PrefixWriter();
  header(w, rs, true);
  w.write(LEVEL_0, `Selector:\t${formatLabelSelector(rs.spec.selector)}\n`);
  writeLabels(w, 'Labels', rs.metadata.labels);
  writeAnnotations(w, 'Annotations', rs.metadata.annotations);
  const controller = controllerOf(rs);
  if (controller) w.write(LEVEL_0, `Controlled By:\t${controller}\n`);
  w.write(
    LEVEL_0,
    `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec.replicas ?? 0} desired\n`,
  );
  writePodsStatus(w, related.pods, rs);
  writePodTemplate(w, rs.spec.template);
  if (rs.status?.conditions?.length) {
    w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(LEVEL_1, '----\t------\t------\n');
    for (const c of rs.status.conditions)
      w.write(LEVEL_1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  writeEvents(w, related.events, nowMs);
  return w.toString();
}

/** describe.go describeDaemonSet (Namespace shown, as in current kubectl). */
export function describeDaemonSet(ds: DaemonSet, related: Related, nowMs: number): string {
  const w = new PrefixWriter();
  const s = ds.status;
  header(w, ds, true);
  w.write(LEVEL_0, `Selector:\t${formatLabelSelector(ds.spec.selector)}\n`);
  const nodeSelector = ds.spec.template.spec.nodeSelector ?? {};
  const formatted = Object.keys(nodeSelector).sort().map((k) => `${k}=${nodeSelector[k]}`).join(',');
  w.write(LEVEL_0, `Node-Selector:\t${formatted || '<none>'}\n`);
  writeLabels(w, 'Labels', ds.metadata.labels);
  writeAnnotations(w, 'Annotations', ds.metadata.annotations);
  w.write(LEVEL_0, `Desired Number of Nodes Scheduled: ${s?.desiredNumberScheduled ?? 0}\n`);
  w.write(LEVEL_0, `Current Number of Nodes Scheduled: ${s?.currentNumberScheduled ?? 0}\n`);
  w.write(LEVEL_0, `Number of Nodes Scheduled with Up-to-date Pods: ${s?.updatedNumberScheduled ?? 0}\n`);
  w.write(LEVEL_0, `Number of Nodes Scheduled with Available Pods: ${s?.numberAvailable ?? 0}\n`);
  w.write(LEVEL_0, `Number of Nodes Misscheduled: ${s?.numberMisscheduled ?? 0}\n`);
  writePodsStatus(w, related.pods, ds);
  writePodTemplate(w, ds.spec.template);
  writeEvents(w, related.events, nowMs);
  return w.toString();
}

export function describeService(svc: Service, related: Related, nowMs: number): string {
  const w = new PrefixWriter();
  header(w, svc, true);
  writeLabels(w, 'Labels', svc.metadata.labels);
  writeAnnotations(w, 'Annotations', svc.metadata.annotations);
  const selector = Object.keys(svc.spec.selector ?? {})
    .sort()
    .map((k) => `${k}=${svc.spec.selector![k]}`)
    .join(',');
  w.write(LEVEL_0, `Selector:\t${selector}\n`);
  w.write(LEVEL_0, `Type:\t${svc.spec.type ?? 'ClusterIP'}\n`);
  if (svc.spec.ipFamilyPolicy) w.write(LEVEL_0, `IP Family Policy:\t${svc.spec.ipFamilyPolicy}\n`);
  if (svc.spec.ipFamilies?.length)
    w.write(LEVEL_0, `IP Families:\t${svc.spec.ipFamilies.join(',')}\n`);
  const ip = svc.spec.clusterIP ?? '';
  w.write(LEVEL_0, `IP:\t${ip}\n`);
  if (svc.spec.clusterIPs?.length) w.write(LEVEL_0, `IPs:\t${svc.spec.clusterIPs.join(',')}\n`);
  if (svc.spec.externalIPs?.length)
    w.write(LEVEL_0, `External IPs:\t${svc.spec.externalIPs.join(',')}\n`);
  const ingress = (svc.status?.loadBalancer?.ingress ?? [])
    .map((i) => i.ip || i.hostname || '')
    .filter((x) => x);
  if (ingress.length) w.write(LEVEL_0, `LoadBalancer Ingress:\t${ingress.join(', ')}\n`);
  if (svc.spec.type === 'ExternalName')
    w.write(LEVEL_0, `External Name:\t${svc.spec.externalName ?? ''}\n`);
  for (const p of svc.spec.ports ?? []) {
    const protocol = p.protocol ?? 'TCP';
    w.write(LEVEL_0, `Port:\t${p.name || '<unset>'}\t${p.port}/${protocol}\n`);
    const target = p.targetPort ?? p.port;
    w.write(
      LEVEL_0,
      `TargetPort:\t${typeof target === 'number' ? `${target}/${protocol}` : `${target}/${protocol}`}\n`,
    );
    if (p.nodePort)
      w.write(LEVEL_0, `NodePort:\t${p.name || '<unset>'}\t${p.nodePort}/${protocol}\n`);
    w.write(LEVEL_0, `Endpoints:\t${endpointsFor(related.endpointSlices ?? [], p.name)}\n`);
  }
  w.write(LEVEL_0, `Session Affinity:\t${svc.spec.sessionAffinity ?? 'None'}\n`);
  if (svc.spec.externalTrafficPolicy)
    w.write(LEVEL_0, `External Traffic Policy:\t${svc.spec.externalTrafficPolicy}\n`);
  if (svc.spec.internalTrafficPolicy)
    w.write(LEVEL_0, `Internal Traffic Policy:\t${svc.spec.internalTrafficPolicy}\n`);
  if (svc.spec.healthCheckNodePort)
    w.write(LEVEL_0, `HealthCheck NodePort:\t${svc.spec.healthCheckNodePort}\n`);
  writeEvents(w, related.events, nowMs);
  return w.toString();
}

/** formatEndpointSlices: ready addresses as ip:port, "+ N more..." past three, "<none>" when empty. */
function endpointsFor(slices: EndpointSlice[], portName: string | undefined): string {
  const list: string[] = [];
  for (const s of slices) {
    const port = (s.ports ?? []).find((p) => (p.name ?? '') === (portName ?? ''));
    for (const e of s.endpoints) {
      if (e.conditions?.ready === false) continue;
      for (const a of e.addresses) list.push(port?.port !== undefined ? `${a}:${port.port}` : a);
    }
  }
  if (list.length === 0) return '<none>';
  return list.length > 3
    ? `${list.slice(0, 3).join(',')} + ${list.length - 3} more...`
    : list.join(',');
}

export function describeNamespace(ns: Namespace, related?: Related): string {
  const w = new PrefixWriter();
  header(w, ns, false);
  writeLabels(w, 'Labels', ns.metadata.labels);
  writeAnnotations(w, 'Annotations', ns.metadata.annotations);
  w.write(LEVEL_0, `Status:\t${ns.status?.phase ?? ''}\n`);
  w.write(LEVEL_0, '\n');
  writeNamespaceQuotas(w, related?.quotas ?? []);
  w.write(LEVEL_0, '\n');
  writeNamespaceLimitRanges(w, related?.limitRanges ?? []);
  return w.toString();
}

/** GenericDescriber: name, namespace, labels, annotations and events for kinds without a describer. */
/** describeEndpoints: each subset's ready and not-ready IPs and its ports. */
export function describeEndpoints(ep: Endpoints, related: Related, nowMs: number): string {
  const w = new PrefixWriter();
  header(w, ep, true);
  writeLabels(w, 'Labels', ep.metadata.labels);
  writeAnnotations(w, 'Annotations', ep.metadata.annotations);
  w.write(LEVEL_0, 'Subsets:\n');
  for (const ss of ep.subsets ?? []) {
    const ready = (ss.addresses ?? []).map((a) => a.ip).join(',');
    const notReady = (ss.notReadyAddresses ?? []).map((a) => a.ip).join(',');
    w.write(LEVEL_1, `Addresses:\t${ready || '<none>'}\n`);
    w.write(LEVEL_1, `NotReadyAddresses:\t${notReady || '<none>'}\n`);
    if ((ss.ports ?? []).length > 0) {
      w.write(LEVEL_1, 'Ports:\n');
      w.write(LEVEL_2, 'Name\tPort\tProtocol\n');
      w.write(LEVEL_2, '----\t----\t--------\n');
      for (const p of ss.ports!) w.write(LEVEL_2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol ?? ''}\n`);
    }
    w.write(LEVEL_0, '\n');
  }
  writeEvents(w, related.events, nowMs);
  return w.toString();
}

export function describeGeneric(
  obj: KubeObject,
  namespaced: boolean,
  related: Related,
  nowMs: number,
): string {
  const w = new PrefixWriter();
  header(w, obj, namespaced);
  writeLabels(w, 'Labels', obj.metadata.labels);
  writeAnnotations(w, 'Annotations', obj.metadata.annotations);
  writeEvents(w, related.events, nowMs);
  return w.toString();
}
