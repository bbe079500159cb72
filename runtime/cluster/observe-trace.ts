// The request trace: one request (by default the reader's last kubectl write) followed through the
// control plane as a sequence of steps between lanes (kubectl, the API server's stages, etcd, the
// controllers, the scheduler, each kubelet and its container runtime), with simulated timestamps.
//
// Everything here is recorded fact, read outside the simulation: the API servers' audit records
// (every stage of every request, with the authorization reason, each admission plugin and the etcd
// revision written, audit.ts), the objects' owner references (who caused what: a Deployment's
// ReplicaSet, its Pods), and the Events the kubelet wrote at each container runtime call. The chain
// follows the objects a write created, as `kubectl describe` and owner references let a person
// follow it: a controller's reaction is the next write of an object the previous one owns.
import type { AuditEvent } from '../apiserver/index.ts';
import type { CoreEvent, KubeObject } from '../api/index.ts';
import type { ControlPlane } from './control-plane.ts';
import { prefixEnd } from '../etcd/index.ts';

export interface TraceLane {
  id: string;
  label: string;
}

export interface RequestTraceStep {
  atMs: number;
  /** Lane ids (equal for a step inside one component, such as an admission plugin). */
  from: string;
  to: string;
  kind: 'request' | 'stage' | 'storage' | 'response' | 'watch' | 'runtime';
  label: string;
  detail?: string;
  /** The audit ID of the request this step belongs to. */
  requestId?: string;
}

export interface RequestTraceRoot {
  requestId: string;
  atMs: number;
  /** "POST deployments default/web (201)". */
  label: string;
}

export interface RequestTrace {
  root?: RequestTraceRoot;
  lanes: TraceLane[];
  steps: RequestTraceStep[];
  /** Steps were left out past the limit. */
  truncated: boolean;
}

const MAX_STEPS = 220;
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const HTTP_METHOD: Record<string, string> = { create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE', get: 'GET', list: 'GET' };

/** Every live replica's audit events, oldest first. */
function auditEvents(controlPlane: ControlPlane): AuditEvent[] {
  const all: AuditEvent[] = [];
  for (const r of controlPlane.replicas) {
    const server = r.current();
    if (server) all.push(...server.audit.list());
  }
  return all.sort((a, b) => a.requestReceivedMs - b.requestReceivedMs || (a.auditID < b.auditID ? -1 : 1));
}

/** The key an audit event's Storage stage wrote ("etcd txn create /registry/pods/default/x at revision 12"). */
function storageOf(e: AuditEvent): { key: string; revision: number; atMs: number; op: string } | undefined {
  const s = e.stages.find((x) => x.stage === 'Storage');
  const m = s && /etcd txn (\w+) (\S+) at revision (\d+)/.exec(s.detail);
  return m && s ? { op: m[1]!, key: m[2]!, revision: Number(m[3]), atMs: s.atMs } : undefined;
}

function laneOfUser(username: string | undefined): TraceLane {
  const u = username ?? '';
  if (u === 'kubernetes-admin' || u === 'kubernetes-super-admin') return { id: 'kubectl', label: 'kubectl' };
  const sa = /^system:serviceaccount:kube-system:(.+)-controller$/.exec(u);
  if (sa) return { id: `ctrl:${sa[1]}`, label: `${sa[1]} controller` };
  if (u === 'system:kube-scheduler') return { id: 'scheduler', label: 'kube-scheduler' };
  if (u === 'system:kube-controller-manager') return { id: 'ctrl:kcm', label: 'kube-controller-manager' };
  const node = /^system:node:(.+)$/.exec(u);
  if (node) return { id: `kubelet:${node[1]}`, label: `kubelet (${node[1]})` };
  return { id: `user:${u}`, label: u || 'anonymous' };
}

const APISERVER: TraceLane = { id: 'apiserver', label: 'kube-apiserver' };
const ETCD: TraceLane = { id: 'etcd', label: 'etcd' };

function describeRequest(e: AuditEvent, name: string | undefined): string {
  const o = e.objectRef ?? {};
  const what = `${o.resource ?? e.requestURI}${o.subresource ? `/${o.subresource}` : ''}`;
  const where = [o.namespace, name ?? o.name].filter(Boolean).join('/');
  return `${HTTP_METHOD[e.verb] ?? e.verb.toUpperCase()} ${what}${where ? ` ${where}` : ''}`;
}

/** Name of the object a request wrote: its objectRef, else the last segment of the key stored. */
function writtenName(e: AuditEvent): string | undefined {
  return e.objectRef?.name ?? storageOf(e)?.key.split('/').pop();
}

class TraceBuilder {
  readonly lanes = new Map<string, TraceLane>();
  readonly steps: RequestTraceStep[] = [];
  truncated = false;

  lane(l: TraceLane): string {
    if (!this.lanes.has(l.id)) this.lanes.set(l.id, l);
    return l.id;
  }

  push(step: RequestTraceStep): void {
    if (this.steps.length >= MAX_STEPS) {
      this.truncated = true;
      return;
    }
    this.steps.push(step);
  }

  /** A request's passage: in, each stage (when `stages`), the etcd write, the answer. */
  request(e: AuditEvent, stages: boolean): void {
    const client = this.lane(laneOfUser(e.user?.name));
    this.lane(APISERVER);
    const name = writtenName(e);
    const id = e.auditID;
    this.push({ atMs: e.requestReceivedMs, from: client, to: APISERVER.id, kind: 'request', label: describeRequest(e, name), requestId: id });
    for (const s of e.stages) {
      if (s.stage === 'RequestReceived' || s.stage === 'ResponseComplete' || s.stage === 'Storage') continue;
      if (!stages && s.ok) continue;
      this.push({ atMs: s.atMs, from: APISERVER.id, to: APISERVER.id, kind: 'stage', label: s.stage, detail: s.detail || (s.ok ? 'ok' : 'refused'), requestId: id });
    }
    const storage = storageOf(e);
    if (storage) {
      this.lane(ETCD);
      this.push({ atMs: storage.atMs, from: APISERVER.id, to: ETCD.id, kind: 'storage', label: `txn ${storage.op} ${storage.key}`, detail: `committed by Raft at revision ${storage.revision}`, requestId: id });
    }
    const code = e.responseStatus?.code ?? 0;
    const done = e.stages.find((s) => s.stage === 'ResponseComplete')?.atMs ?? e.requestReceivedMs;
    this.push({ atMs: done, from: APISERVER.id, to: client, kind: 'response', label: `${code}`, ...(e.responseStatus?.message ? { detail: e.responseStatus.message } : {}), requestId: id });
  }
}

export interface TraceSources {
  controlPlane: ControlPlane;
}

/** Cached objects of a resource from a running API server (no request). */
function objects(controlPlane: ControlPlane, group: string, resource: string): readonly KubeObject[] {
  return controlPlane.liveServers()[0]?.peek(group, resource) ?? [];
}

const RESOURCE_GROUP: Record<string, string> = { deployments: 'apps', replicasets: 'apps', statefulsets: 'apps', daemonsets: 'apps', pods: '', jobs: 'batch' };

/** Events the kubelet wrote about a pod, read from etcd (events have no watch cache), by name. */
function eventObjects(controlPlane: ControlPlane): Map<string, CoreEvent> {
  const etcd = controlPlane.etcd;
  const member = etcd.leader() ?? etcd.members.find((m) => etcd.isUp(m.process))?.process;
  const range = member ? etcd.store(member)?.range({ key: '/registry/events/', rangeEnd: prefixEnd('/registry/events/') }) : undefined;
  const out = new Map<string, CoreEvent>();
  if (!range?.ok) return out;
  for (const kv of range.value.kvs) {
    try {
      out.set(kv.key, JSON.parse(kv.value) as CoreEvent);
    } catch {
      // not an object the API server wrote
    }
  }
  return out;
}

/** A write the reader made with kubectl (not kubeadm's or a controller's admin-credential requests). */
function isKubectlWrite(e: AuditEvent): boolean {
  return WRITE_VERBS.has(e.verb) && (e.userAgent ?? '').startsWith('kubectl') && e.objectRef?.resource !== 'events';
}

/** The reader's kubectl writes, newest first (the roots a trace can start from). */
export function traceRoots(controlPlane: ControlPlane, limit = 20): RequestTraceRoot[] {
  return auditEvents(controlPlane)
    .filter(isKubectlWrite)
    .slice(-limit)
    .reverse()
    .map((e) => ({ requestId: e.auditID, atMs: e.requestReceivedMs, label: `${describeRequest(e, writtenName(e))} (${e.responseStatus?.code ?? '?'})` }));
}

/**
 * The trace of one request (by audit ID; default: the reader's last kubectl write) and of what it
 * caused: the controllers' writes of the objects it owns, transitively (a Deployment's ReplicaSet,
 * the ReplicaSet's Pods), each Pod's binding by the scheduler, and its kubelet's container runtime
 * calls and status reports.
 */
export function requestTrace(controlPlane: ControlPlane, requestId?: string): RequestTrace {
  const all = auditEvents(controlPlane);
  const rootEvent = requestId !== undefined
    ? all.find((e) => e.auditID === requestId)
    : all.filter(isKubectlWrite).at(-1);
  const b = new TraceBuilder();
  b.lane({ id: 'kubectl', label: 'kubectl' });
  b.lane(APISERVER);
  b.lane(ETCD);
  if (!rootEvent) return { lanes: [...b.lanes.values()], steps: [], truncated: false };
  const root: RequestTraceRoot = { requestId: rootEvent.auditID, atMs: rootEvent.requestReceivedMs, label: `${describeRequest(rootEvent, writtenName(rootEvent))} (${rootEvent.responseStatus?.code ?? '?'})` };
  b.request(rootEvent, true);

  // what the write caused: objects owned (transitively) by the one written, found by uid
  const ns = rootEvent.objectRef?.namespace;
  const rootName = writtenName(rootEvent);
  const rootResource = rootEvent.objectRef?.resource ?? '';
  const rootObject = objects(controlPlane, rootEvent.objectRef?.apiGroup ?? RESOURCE_GROUP[rootResource] ?? '', rootResource)
    .find((o) => o.metadata.name === rootName && o.metadata.namespace === ns);
  const after = storageOf(rootEvent)?.atMs ?? rootEvent.requestReceivedMs;
  const events = eventObjects(controlPlane);
  if (rootObject?.metadata.uid && ns !== undefined) {
    const children = (uid: string): { resource: string; object: KubeObject }[] => {
      const out: { resource: string; object: KubeObject }[] = [];
      for (const resource of ['replicasets', 'pods']) {
        for (const o of objects(controlPlane, RESOURCE_GROUP[resource]!, resource)) {
          if (o.metadata.namespace === ns && o.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller)) out.push({ resource, object: o });
        }
      }
      return out;
    };
    const visit = (uid: string, since: number): void => {
      for (const child of children(uid)) {
        const key = `/registry/${child.resource}/${ns}/${child.object.metadata.name}`;
        const created = all.find((e) => e.verb === 'create' && e.requestReceivedMs >= since && storageOf(e)?.key === key);
        if (!created) {
          // an object that existed before (the ReplicaSet a scale or a rollout back reuses): its own new children may still follow
          if (child.resource !== 'pods' && child.object.metadata.uid) visit(child.object.metadata.uid, since);
          continue;
        }
        const controller = b.lane(laneOfUser(created.user?.name));
        b.push({ atMs: created.requestReceivedMs, from: APISERVER.id, to: controller, kind: 'watch', label: `watch: ${child.resource === 'pods' ? 'ReplicaSet' : 'Deployment'} changed`, detail: 'the informer sees the write and queues the owner\'s key', requestId: created.auditID });
        b.request(created, false);
        const createdAt = storageOf(created)?.atMs ?? created.requestReceivedMs;
        if (child.resource === 'pods') podLife(b, all, events, ns, child.object.metadata.name ?? '', createdAt);
        else if (child.object.metadata.uid) visit(child.object.metadata.uid, createdAt);
      }
    };
    visit(rootObject.metadata.uid, after);
  }
  b.steps.sort((x, y) => x.atMs - y.atMs);
  return { root, lanes: [...b.lanes.values()], steps: b.steps, truncated: b.truncated };
}

/** A pod after its creation: the scheduler's binding, the kubelet's runtime calls (its Events) and status reports. */
function podLife(b: TraceBuilder, all: readonly AuditEvent[], events: ReadonlyMap<string, CoreEvent>, ns: string, pod: string, since: number): void {
  const binding = all.find((e) => e.requestReceivedMs >= since && e.objectRef?.resource === 'pods' && e.objectRef.subresource === 'binding' && e.objectRef.name === pod);
  if (binding) {
    const scheduler = b.lane(laneOfUser(binding.user?.name));
    b.push({ atMs: binding.requestReceivedMs, from: APISERVER.id, to: scheduler, kind: 'watch', label: 'watch: a Pod with no node', detail: 'the scheduler queues it, filters and scores the nodes', requestId: binding.auditID });
    b.request(binding, false);
  }
  const statusPatches = all.filter((e) => e.requestReceivedMs >= since && e.objectRef?.resource === 'pods' && e.objectRef.subresource === 'status' && e.objectRef.name === pod && e.user?.name?.startsWith('system:node:'));
  // the kubelet's Events, each written when it made the container runtime call it reports
  const kubeletEvents = all.filter((e) => e.requestReceivedMs >= since && e.verb === 'create' && e.objectRef?.resource === 'events' && e.user?.name?.startsWith('system:node:'))
    .map((e) => ({ e, obj: events.get(storageOf(e)?.key ?? '') }))
    .filter((x) => x.obj?.involvedObject.name === pod && x.obj.involvedObject.kind === 'Pod');
  const node = /^system:node:(.+)$/.exec(statusPatches[0]?.user?.name ?? kubeletEvents[0]?.e.user?.name ?? '')?.[1];
  if (!node) return;
  const kubelet = b.lane({ id: `kubelet:${node}`, label: `kubelet (${node})` });
  const runtime = b.lane({ id: `cri:${node}`, label: `container runtime (${node})` });
  if (binding) {
    const bound = storageOf(binding)?.atMs ?? binding.requestReceivedMs;
    b.push({ atMs: bound, from: APISERVER.id, to: kubelet, kind: 'watch', label: `watch: ${pod} bound to ${node}`, detail: 'the kubelet sees a Pod for its node and starts its pod worker' });
  }
  const CRI: Record<string, string> = { Pulling: 'PullImage', Pulled: 'PullImage done', Created: 'CreateContainer', Started: 'StartContainer', Failed: 'error', BackOff: 'back-off' };
  for (const { e, obj } of kubeletEvents) {
    const reason = obj!.reason ?? '';
    b.push({ atMs: e.requestReceivedMs, from: kubelet, to: runtime, kind: 'runtime', label: `${CRI[reason] ?? reason}`, detail: `${reason}: ${obj!.message ?? ''}` });
  }
  for (const e of statusPatches.slice(0, 4)) b.request(e, false);
}
