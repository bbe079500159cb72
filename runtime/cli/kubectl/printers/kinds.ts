// Table columns of `kubectl get` per kind: the server-side Table the API server builds.
// mirrors pkg/printers/internalversion/printers.go (AddHandlers column definitions and the
// print<Kind> functions). Priority-1 columns are the `-o wide` extras.
import type {
  ClusterRoleBinding,
  ConfigMap,
  Secret,
  ControllerRevision,
  CoreEvent,
  Event as EventsV1Event,
  DaemonSet,
  Deployment,
  ComponentStatus,
  EndpointSlice,
  Endpoints,
  KubeObject,
  Lease,
  Namespace,
  Node,
  Pod,
  PodDisruptionBudget,
  PriorityClass,
  ReplicaSet,
  ResourceQuota,
  RoleBinding,
  Service,
  ServiceAccount,
  Container,
  IPAddress,
  LabelSelector,
  ServiceCIDR,
} from '../../../api/index.ts';
import {
  formatLabels as labelsString,
  formatLabelSelector,
  parseAPIVersion,
} from '../../../api/index.ts';
import { translateTimestampSince } from '../duration.ts';
import { POD_COLUMNS, POD_WIDE_COLUMNS, podRow } from './pod.ts';

export interface KindTable {
  /** Column headers, upper-cased as kubectl prints them. */
  headers(wide: boolean): string[];
  row(obj: KubeObject, nowMs: number, wide: boolean): string[];
}

/** labels.FormatLabels: "a=1,b=2" with sorted keys, "<none>" when empty. */
export const formatLabels = (set: Record<string, string> | undefined): string =>
  labelsString(set) || '<none>';

const age = (obj: KubeObject, nowMs: number): string =>
  translateTimestampSince(obj.metadata.creationTimestamp, nowMs);
const nameOf = (obj: KubeObject): string => obj.metadata.name ?? '';

/** layoutContainerCells: container names and images, comma-joined. */
function containerCells(containers: Container[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}

/** metav1.LabelSelectorAsSelector(...).String(): "app=web", "<none>" for an empty selector. */
function selectorText(selector: LabelSelector | undefined): string {
  return formatLabelSelector(selector);
}

function table<T extends KubeObject>(
  columns: string[],
  wideColumns: string[],
  row: (obj: T, nowMs: number, wide: boolean) => string[],
): KindTable {
  return {
    headers: (wide) => (wide ? [...columns, ...wideColumns] : columns),
    row: (obj, nowMs, wide) => row(obj as T, nowMs, wide),
  };
}

// ---------------------------------------------------------------- nodes

const NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
const NODE_ROLE_LABEL = 'kubernetes.io/role';

/** findNodeRoles: sorted role names from node-role.kubernetes.io/<role> and kubernetes.io/role. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(NODE_ROLE_PREFIX) && key.length > NODE_ROLE_PREFIX.length)
      roles.add(key.slice(NODE_ROLE_PREFIX.length));
    else if (key === NODE_ROLE_LABEL && value !== '') roles.add(value);
  }
  return [...roles].sort();
}

/** "Ready", "NotReady", "Unknown", with ",SchedulingDisabled" for a cordoned node. */
export function nodeStatus(node: Node): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const parts = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (node.spec?.unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

const nodeAddress = (node: Node, type: string): string =>
  (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';

const nodeTable = table<Node>(
  ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
  ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
  (node, nowMs, wide) => {
    const info = node.status?.nodeInfo;
    const cells = [
      nameOf(node),
      nodeStatus(node),
      nodeRoles(node).join(',') || '<none>',
      age(node, nowMs),
      info?.kubeletVersion ?? '',
    ];
    if (wide) {
      cells.push(
        nodeAddress(node, 'InternalIP'),
        nodeAddress(node, 'ExternalIP'),
        info?.osImage || '<unknown>',
        info?.kernelVersion || '<unknown>',
        info?.containerRuntimeVersion || '<unknown>',
      );
    }
    return cells;
  },
);

// ---------------------------------------------------------------- workloads

const deploymentTable = table<Deployment>(
  ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
  ['CONTAINERS', 'IMAGES', 'SELECTOR'],
  (d, nowMs, wide) => {
    const s = d.status ?? {};
    const cells = [
      nameOf(d),
      `${s.readyReplicas ?? 0}/${d.spec.replicas ?? 0}`,
      String(s.updatedReplicas ?? 0),
      String(s.availableReplicas ?? 0),
      age(d, nowMs),
    ];
    if (wide)
      cells.push(...containerCells(d.spec.template.spec.containers), selectorText(d.spec.selector));
    return cells;
  },
);

const replicaSetTable = table<ReplicaSet>(
  ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
  ['CONTAINERS', 'IMAGES', 'SELECTOR'],
  (rs, nowMs, wide) => {
    const cells = [
      nameOf(rs),
      String(rs.spec.replicas ?? 0),
      String(rs.status?.replicas ?? 0),
      String(rs.status?.readyReplicas ?? 0),
      age(rs, nowMs),
    ];
    if (wide)
      cells.push(
        ...containerCells(rs.spec.template?.spec.containers),
        selectorText(rs.spec.selector),
      );
    return cells;
  },
);

const daemonSetTable = table<DaemonSet>(
  ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
  ['CONTAINERS', 'IMAGES', 'SELECTOR'],
  (ds, nowMs, wide) => {
    const s = ds.status;
    const cells = [
      nameOf(ds),
      String(s?.desiredNumberScheduled ?? 0),
      String(s?.currentNumberScheduled ?? 0),
      String(s?.numberReady ?? 0),
      String(s?.updatedNumberScheduled ?? 0),
      String(s?.numberAvailable ?? 0),
      formatLabels(ds.spec.template.spec.nodeSelector),
      age(ds, nowMs),
    ];
    if (wide)
      cells.push(
        ...containerCells(ds.spec.template.spec.containers),
        selectorText(ds.spec.selector),
      );
    return cells;
  },
);

const controllerRevisionTable = table<ControllerRevision>(
  ['NAME', 'CONTROLLER', 'REVISION', 'AGE'],
  [],
  (cr, nowMs) => {
    const owner = (cr.metadata.ownerReferences ?? []).find((o) => o.controller);
    let controller = '<none>';
    if (owner) {
      const { group } = parseAPIVersion(owner.apiVersion);
      controller = `${owner.kind.toLowerCase()}${group ? `.${group}` : ''}/${owner.name}`;
    }
    return [nameOf(cr), controller, String(cr.revision), age(cr, nowMs)];
  },
);

// ---------------------------------------------------------------- services and endpoints

/** makePortString: "80/TCP", "80:30080/TCP", comma-joined. */
export function servicePorts(svc: Service): string {
  const text = (svc.spec.ports ?? [])
    .map((p) =>
      p.nodePort
        ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}`
        : `${p.port}/${p.protocol ?? 'TCP'}`,
    )
    .join(',');
  return text || '<none>';
}

const LOAD_BALANCER_WIDTH = 16;

/** getServiceExternalIP: external IPs, load balancer ingress, "<pending>", or "<none>". */
export function serviceExternalIP(svc: Service, wide: boolean): string {
  const externalIPs = svc.spec.externalIPs ?? [];
  switch (svc.spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      let lb = (svc.status?.loadBalancer?.ingress ?? [])
        .map((i) => i.ip || i.hostname || '')
        .filter((x) => x !== '')
        .join(',');
      if (!wide && lb.length > LOAD_BALANCER_WIDTH)
        lb = `${lb.slice(0, LOAD_BALANCER_WIDTH - 3)}...`;
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
  }
  return '<unknown>';
}

const serviceTable = table<Service>(
  ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
  ['SELECTOR'],
  (svc, nowMs, wide) => {
    const cells = [
      nameOf(svc),
      svc.spec.type ?? 'ClusterIP',
      svc.spec.clusterIPs?.[0] ?? svc.spec.clusterIP ?? '<none>',
      serviceExternalIP(svc, wide),
      servicePorts(svc),
      age(svc, nowMs),
    ];
    if (wide) cells.push(formatLabels(svc.spec.selector));
    return cells;
  },
);

/** listWithMoreString: at most 3 entries, then " + N more...", "<unset>" when empty. */
function listWithMore(values: string[]): string {
  const max = 3;
  const shown = values.slice(0, max).join(',');
  if (values.length > max) return `${shown} + ${values.length - max} more...`;
  return shown || '<unset>';
}

const endpointSliceTable = table<EndpointSlice>(
  ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
  [],
  (es, nowMs) => [
    nameOf(es),
    es.addressType,
    listWithMore(
      (es.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : (p.name ?? '*'))),
    ),
    listWithMore(es.endpoints.flatMap((e) => e.addresses)),
    age(es, nowMs),
  ],
);

/**
 * printEndpoints -> formatEndpoints (pkg/printers/internalversion/printers.go): up to 3
 * "ip:port" (or bare IPs for a port-less subset) from the ready addresses, then " + N more...";
 * "<none>" only when there are no subsets at all (not-ready addresses alone print nothing).
 */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let count = 0;
  let more = false;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    const pairs = ports.length === 0 ? [undefined] : ports.map((p) => p.port);
    for (const port of pairs) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(port === undefined ? a.ip : `${a.ip}:${port}`);
      }
    }
  }
  return more ? `${list.join(',')} + ${count - max} more...` : list.join(',');
}

/** printComponentStatus: the Healthy condition's verdict, message and error. */
const componentStatusTable = table<ComponentStatus>(['NAME', 'STATUS', 'MESSAGE', 'ERROR'], [], (cs) => {
  const healthy = cs.conditions?.find((c) => c.type === 'Healthy');
  const status = healthy === undefined ? 'Unknown' : healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
  return [nameOf(cs), status, healthy?.message ?? '', healthy?.error ?? ''];
});

const endpointsTable = table<Endpoints>(['NAME', 'ENDPOINTS', 'AGE'], [], (ep, nowMs) => [nameOf(ep), formatEndpoints(ep), age(ep, nowMs)]);

// ---------------------------------------------------------------- events

const eventTable: KindTable = {
  ...table<CoreEvent>(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], [], (ev, nowMs, wide) => eventRow(asCoreEvent(ev), nowMs, wide)),
  // Wide interleaves SUBOBJECT and SOURCE before MESSAGE, as eventColumnDefinitions does.
  headers: (wide) =>
    wide
      ? [
          'LAST SEEN',
          'TYPE',
          'REASON',
          'OBJECT',
          'SUBOBJECT',
          'SOURCE',
          'MESSAGE',
          'FIRST SEEN',
          'COUNT',
          'NAME',
        ]
      : ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
};

/**
 * The server prints events of both groups from the internal Event (printers.go printEvent), so an
 * events.k8s.io/v1 event (`kubectl get events.events.k8s.io`) is read through the core field names.
 */
function asCoreEvent(ev: CoreEvent | EventsV1Event): CoreEvent {
  if (!('regarding' in ev) || 'involvedObject' in ev) return ev as CoreEvent;
  const core: CoreEvent = { metadata: ev.metadata, involvedObject: ev.regarding ?? {}, eventTime: ev.eventTime };
  if (ev.reason !== undefined) core.reason = ev.reason;
  if (ev.note !== undefined) core.message = ev.note;
  if (ev.type !== undefined) core.type = ev.type;
  if (ev.series) core.series = ev.series;
  if (ev.deprecatedSource) core.source = ev.deprecatedSource;
  if (ev.deprecatedFirstTimestamp) core.firstTimestamp = ev.deprecatedFirstTimestamp;
  if (ev.deprecatedLastTimestamp) core.lastTimestamp = ev.deprecatedLastTimestamp;
  if (ev.deprecatedCount !== undefined) core.count = ev.deprecatedCount;
  if (ev.reportingController !== undefined) core.reportingComponent = ev.reportingController;
  if (ev.reportingInstance !== undefined) core.reportingInstance = ev.reportingInstance;
  return core;
}

function eventRow(ev: CoreEvent, nowMs: number, wide: boolean): string[] {
  const first = ev.firstTimestamp
    ? translateTimestampSince(ev.firstTimestamp, nowMs)
    : translateTimestampSince(ev.eventTime, nowMs);
  let last = ev.lastTimestamp ? translateTimestampSince(ev.lastTimestamp, nowMs) : first;
  let count = ev.count ?? 0;
  if (ev.series) {
    last = translateTimestampSince(ev.series.lastObservedTime, nowMs);
    count = ev.series.count ?? 0;
  } else if (count === 0) count = 1;
  const kind = (ev.involvedObject.kind ?? '').toLowerCase();
  const target = ev.involvedObject.name ? `${kind}/${ev.involvedObject.name}` : kind;
  const message = (ev.message ?? '').trim();
  if (!wide) return [last, ev.type ?? '', ev.reason ?? '', target, message];
  return [
    last,
    ev.type ?? '',
    ev.reason ?? '',
    target,
    ev.involvedObject.fieldPath ?? '',
    eventSource(ev),
    message,
    first,
    String(count),
    nameOf(ev),
  ];
}

/** formatEventSource: "component, host", falling back to the reporting controller. */
function eventSource(ev: CoreEvent): string {
  const component = ev.source?.component || ev.reportingComponent || '';
  const host = ev.source?.host || ev.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

// ---------------------------------------------------------------- the rest

const namespaceTable = table<Namespace>(['NAME', 'STATUS', 'AGE'], [], (ns, nowMs) => [
  nameOf(ns),
  ns.status?.phase ?? '',
  age(ns, nowMs),
]);
const leaseTable = table<Lease>(['NAME', 'HOLDER', 'AGE'], [], (l, nowMs) => [
  nameOf(l),
  l.spec?.holderIdentity ?? '',
  age(l, nowMs),
]);
/** printPriorityClass: PREEMPTIONPOLICY is a default column, not a -o wide one ("<none>" when unset). */
const priorityClassTable = table<PriorityClass>(
  ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'],
  [],
  (pc, nowMs) => [nameOf(pc), String(pc.value ?? 0), String(pc.globalDefault ?? false), age(pc, nowMs), pc.preemptionPolicy ?? '<none>'],
);
/** printServiceCIDR: the CIDRs joined by commas. */
const serviceCIDRTable = table<ServiceCIDR>(['NAME', 'CIDRS', 'AGE'], [], (c, nowMs) => [
  nameOf(c),
  (c.spec?.cidrs ?? []).join(','),
  age(c, nowMs),
]);
/** printIPAddress: PARENTREF is "services/<namespace>/<name>" (GroupResource, lowercased); no AGE column. */
const ipAddressTable = table<IPAddress>(['NAME', 'PARENTREF'], [], (ip) => {
  const ref = ip.spec?.parentRef;
  if (!ref) return [nameOf(ip), '<none>'];
  const gr = (ref.group ? `${ref.resource}.${ref.group}` : ref.resource).toLowerCase();
  return [nameOf(ip), `${gr}${ref.namespace ? `/${ref.namespace}` : ''}/${ref.name}`];
});
const configMapTable = table<ConfigMap>(['NAME', 'DATA', 'AGE'], [], (cm, nowMs) => [
  nameOf(cm),
  String(Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length),
  age(cm, nowMs),
]);
const secretTable = table<Secret>(['NAME', 'TYPE', 'DATA', 'AGE'], [], (secret, nowMs) => [
  nameOf(secret),
  secret.type ?? '',
  String(Object.keys(secret.data ?? {}).length),
  age(secret, nowMs),
]);
const serviceAccountTable = table<ServiceAccount>(['NAME', 'SECRETS', 'AGE'], [], (sa, nowMs) => [
  nameOf(sa),
  String((sa.secrets ?? []).length),
  age(sa, nowMs),
]);
/** Roles print their creation time as RFC 3339, not an age. */
const roleTable = table<KubeObject>(['NAME', 'CREATED AT'], [], (r) => [
  nameOf(r),
  r.metadata.creationTimestamp ?? '',
]);

function bindingSubjects(b: RoleBinding | ClusterRoleBinding, kind: string): string {
  return (b.subjects ?? [])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name))
    .join(', ');
}

const bindingTable = table<RoleBinding | ClusterRoleBinding>(
  ['NAME', 'ROLE', 'AGE'],
  ['USERS', 'GROUPS', 'SERVICEACCOUNTS'],
  (b, nowMs, wide) => {
    const cells = [nameOf(b), `${b.roleRef.kind}/${b.roleRef.name}`, age(b, nowMs)];
    if (wide)
      cells.push(
        bindingSubjects(b, 'User'),
        bindingSubjects(b, 'Group'),
        bindingSubjects(b, 'ServiceAccount'),
      );
    return cells;
  },
);

const podTable = table<Pod>(POD_COLUMNS, POD_WIDE_COLUMNS, podRow);

/**
 * printResourceQuota: REQUEST and LIMIT list "<name>: <used>/<hard>" for every status.hard name in
 * sorted order, limits.* names under LIMIT and the rest under REQUEST (empty until the quota
 * controller has written the status).
 */
export function quotaUsageColumns(q: ResourceQuota): [string, string] {
  const request: string[] = [];
  const limit: string[] = [];
  const hard = q.status?.hard ?? {};
  for (const name of Object.keys(hard).sort()) {
    const cell = `${name}: ${q.status?.used?.[name] ?? '0'}/${hard[name]}`;
    (name.split('.').length > 1 && name.split('.')[0] === 'limits' ? limit : request).push(cell);
  }
  return [request.join(', '), limit.join(', ')];
}
const resourceQuotaTable = table<ResourceQuota>(['NAME', 'AGE', 'REQUEST', 'LIMIT'], [], (q, nowMs) => [
  nameOf(q),
  age(q, nowMs),
  ...quotaUsageColumns(q),
]);

/**
 * printPodDisruptionBudget: MIN AVAILABLE and MAX UNAVAILABLE print the IntOrString as given
 * ("N/A" for the one not set); ALLOWED DISRUPTIONS is status.disruptionsAllowed.
 */
const podDisruptionBudgetTable = table<PodDisruptionBudget>(
  ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
  [],
  (pdb, nowMs) => [
    nameOf(pdb),
    pdb.spec?.minAvailable !== undefined && pdb.spec.minAvailable !== null ? String(pdb.spec.minAvailable) : 'N/A',
    pdb.spec?.maxUnavailable !== undefined && pdb.spec.maxUnavailable !== null ? String(pdb.spec.maxUnavailable) : 'N/A',
    String(pdb.status?.disruptionsAllowed ?? 0),
    age(pdb, nowMs),
  ],
);

/** The default table for kinds without a printer: NAME and AGE (the API server's default Table). */
export const DEFAULT_TABLE: KindTable = table<KubeObject>(['NAME', 'AGE'], [], (o, nowMs) => [
  nameOf(o),
  age(o, nowMs),
]);

export const KIND_TABLES: Readonly<Record<string, KindTable>> = {
  Pod: podTable,
  Node: nodeTable,
  Deployment: deploymentTable,
  ReplicaSet: replicaSetTable,
  DaemonSet: daemonSetTable,
  ControllerRevision: controllerRevisionTable,
  Service: serviceTable,
  EndpointSlice: endpointSliceTable,
  Endpoints: endpointsTable,
  ComponentStatus: componentStatusTable,
  Event: eventTable,
  Namespace: namespaceTable,
  Lease: leaseTable,
  PriorityClass: priorityClassTable,
  ServiceCIDR: serviceCIDRTable,
  IPAddress: ipAddressTable,
  ConfigMap: configMapTable,
  Secret: secretTable,
  ServiceAccount: serviceAccountTable,
  ResourceQuota: resourceQuotaTable,
  PodDisruptionBudget: podDisruptionBudgetTable,
  // printLimitRange: NAME and CREATED AT (RFC 3339), like roles
  LimitRange: roleTable,
  Role: roleTable,
  ClusterRole: roleTable,
  RoleBinding: bindingTable,
  ClusterRoleBinding: bindingTable,
};

export function tableFor(kind: string): KindTable {
  return KIND_TABLES[kind] ?? DEFAULT_TABLE;
}
