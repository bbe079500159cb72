// kubectl describe node, as describe.go's NodeDescriber and describeNode print it: the node's
// Lease (kube-node-lease/<name>), conditions, addresses, capacity, system info, then the
// non-terminated pods with their requests and limits as a share of allocatable, the node's
// allocated totals ("Total limits may be over 100 percent"), and the events.
import type { Node, Pod } from '../../../api/index.ts';
import { writeEvents } from './events.ts';
import type { Related } from './others.ts';
import { addList, percentOf, podRequestsAndLimits, quantityOf, type QuantityList } from './pod-resources.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter, rfc1123z, since, writeAnnotations, writeLabels } from './writer.ts';

/** The standard container resources (IsStandardContainerResourceName), hugepages aside. */
const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage']);
const isHugePages = (name: string): boolean => name.startsWith('hugepages-');

export function describeNode(node: Node, related: Related, nowMs: number): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${node.metadata.name ?? ''}\n`);
  const roles = Object.keys(node.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  w.write(LEVEL_0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
  writeLabels(w, 'Labels', node.metadata.labels);
  writeAnnotations(w, 'Annotations', node.metadata.annotations);
  w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
  const taints = node.spec?.taints ?? [];
  w.write(LEVEL_0, 'Taints:\t');
  if (taints.length === 0) w.write(LEVEL_0, '<none>\n');
  taints.forEach((t, i) =>
    w.write(LEVEL_0, `${i === 0 ? '' : '\t'}${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`),
  );
  w.write(LEVEL_0, `Unschedulable:\t${node.spec?.unschedulable ?? false}\n`);
  if (related.lease) {
    const spec = related.lease.spec;
    w.write(LEVEL_0, 'Lease:\n');
    w.write(LEVEL_1, `HolderIdentity:\t${spec?.holderIdentity ?? '<unset>'}\n`);
    w.write(LEVEL_1, `AcquireTime:\t${spec?.acquireTime ? rfc1123z(spec.acquireTime) : '<unset>'}\n`);
    w.write(LEVEL_1, `RenewTime:\t${spec?.renewTime ? rfc1123z(spec.renewTime) : '<unset>'}\n`);
  }
  const conditions = node.status?.conditions ?? [];
  if (conditions.length) {
    w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(LEVEL_1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conditions) {
      w.write(
        LEVEL_1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
    }
  }
  w.write(LEVEL_0, 'Addresses:\n');
  for (const a of node.status?.addresses ?? []) w.write(LEVEL_1, `${a.type}:\t${a.address}\n`);
  for (const [title, list] of [
    ['Capacity', node.status?.capacity],
    ['Allocatable', node.status?.allocatable],
  ] as const) {
    if (!list || Object.keys(list).length === 0) continue;
    w.write(LEVEL_0, `${title}:\n`);
    for (const k of Object.keys(list).sort()) w.write(LEVEL_1, `${k}:\t${quantityOf(list, k).toString()}\n`);
  }
  const info = node.status?.nodeInfo;
  w.write(LEVEL_0, 'System Info:\n');
  const rows: [string, string | undefined][] = [
    ['Machine ID', info?.machineID],
    ['System UUID', info?.systemUUID],
    ['Boot ID', info?.bootID],
    ['Kernel Version', info?.kernelVersion],
    ['OS Image', info?.osImage],
    ['Operating System', info?.operatingSystem],
    ['Architecture', info?.architecture],
    ['Container Runtime Version', info?.containerRuntimeVersion],
    ['Kubelet Version', info?.kubeletVersion],
  ];
  for (const [k, v] of rows) w.write(LEVEL_1, `${k}:\t${v ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(LEVEL_0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if (node.spec?.podCIDRs?.length) w.write(LEVEL_0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
  if (node.spec?.providerID) w.write(LEVEL_0, `ProviderID:\t${node.spec.providerID}\n`);
  if (related.pods === undefined) w.write(LEVEL_0, 'Pods:\tnot authorized\n');
  else writeNodeResources(w, node, related.pods, nowMs);
  writeEvents(w, related.events, nowMs);
  return w.toString();
}

/** describeNodeResource: each pod's share of allocatable, then the node's totals. */
function writeNodeResources(w: PrefixWriter, node: Node, all: readonly Pod[], nowMs: number): void {
  // the list is asked with status.phase!=Succeeded,status.phase!=Failed; filtered again for callers that did not
  const pods = all.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  const allocatable = Object.keys(node.status?.allocatable ?? {}).length > 0 ? node.status?.allocatable : node.status?.capacity;
  const cpu = quantityOf(allocatable, 'cpu').milliValue();
  const memory = quantityOf(allocatable, 'memory').value();
  w.write(LEVEL_0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  // the empty column after Name is upstream's ("Name\t\tCPU Requests")
  w.write(LEVEL_1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(LEVEL_1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const requests: QuantityList = new Map();
  const limits: QuantityList = new Map();
  for (const p of pods) {
    const own = podRequestsAndLimits(p);
    addList(requests, own.requests);
    addList(limits, own.limits);
    const share = (list: QuantityList, name: 'cpu' | 'memory'): string => {
      const q = quantityOf(list, name);
      return `${q.toString()} (${percentOf(name === 'cpu' ? q.milliValue() : q.value(), name === 'cpu' ? cpu : memory)}%)`;
    };
    w.write(
      LEVEL_1,
      `${p.metadata.namespace ?? ''}\t${p.metadata.name ?? ''}\t\t${share(own.requests, 'cpu')}\t${share(own.limits, 'cpu')}\t${share(own.requests, 'memory')}\t${share(own.limits, 'memory')}\t${since(p.metadata.creationTimestamp, nowMs)}\n`,
    );
  }
  w.write(LEVEL_0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(LEVEL_1, 'Resource\tRequests\tLimits\n');
  w.write(LEVEL_1, '--------\t--------\t------\n');
  // the totals guard a zero allocatable (the per-pod shares above do not)
  const total = (name: string, milli: boolean): string => {
    const whole = milli ? quantityOf(allocatable, name).milliValue() : quantityOf(allocatable, name).value();
    const cell = (list: QuantityList): string => {
      const q = quantityOf(list, name);
      return `${q.toString()} (${whole === 0 ? '0' : percentOf(milli ? q.milliValue() : q.value(), whole)}%)`;
    };
    return `${name}\t${cell(requests)}\t${cell(limits)}\n`;
  };
  w.write(LEVEL_1, total('cpu', true));
  w.write(LEVEL_1, total('memory', false));
  w.write(LEVEL_1, total('ephemeral-storage', false));
  const names = Object.keys(allocatable ?? {}).sort();
  for (const name of names.filter(isHugePages)) w.write(LEVEL_1, total(name, false));
  for (const name of names.filter((n) => !isHugePages(n) && !STANDARD.has(n) && n !== 'pods')) {
    w.write(LEVEL_1, `${name}\t${quantityOf(requests, name).toString()}\t${quantityOf(limits, name).toString()}\n`);
  }
}
