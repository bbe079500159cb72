// Per-resource create/update strategies: what the server sets or resets before validation.
// mirrors pkg/registry/<group>/<resource>/strategy.go (PrepareForCreate, PrepareForUpdate, the
// status strategies) and staging/src/k8s.io/apiserver/pkg/registry/rest/create.go, update.go
// (BeforeCreate, BeforeUpdate: uid, creationTimestamp, generation kept by the server).
import { rfc3339, type KubeObject, type ResourceInfo } from '../../api/index.ts';
import { jsonClone } from '../encoding.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kinds whose metadata.generation counts spec changes (their controllers report observedGeneration). */
const GENERATION_KINDS = new Set(['Pod', 'Deployment', 'ReplicaSet', 'DaemonSet', 'PodDisruptionBudget']);
/** Kinds with a status subresource: the main resource cannot change status, /status cannot change spec. */
const STATUS_KINDS = new Set(['Pod', 'Deployment', 'ReplicaSet', 'DaemonSet', 'Node', 'Namespace', 'Service', 'ResourceQuota', 'PodDisruptionBudget']);

export interface StrategyContext {
  nowMs: number;
  newUid(): string;
  /** Lower-case alphanumerics for generateName suffixes and token volume names. */
  randomSuffix(n: number): string;
}

export const hasStatusSubresource = (kind: string | undefined): boolean => STATUS_KINDS.has(kind ?? '');

/** PrepareForCreate + FillObjectMetaSystemFields: reset what clients may not set. */
export function prepareForCreate(obj: KubeObject, ctx: StrategyContext): void {
  const m = obj.metadata;
  if (!m.name && m.generateName) m.name = `${m.generateName}${ctx.randomSuffix(5)}`;
  m.uid = ctx.newUid();
  m.creationTimestamp = rfc3339(ctx.nowMs);
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  delete m.resourceVersion;
  if (GENERATION_KINDS.has(obj.kind ?? '')) m.generation = 1;
  else delete m.generation;
  const o = obj as unknown as Obj;
  switch (obj.kind) {
    case 'Pod':
      o.status = { phase: 'Pending', qosClass: qosClass(o.spec) };
      break;
    case 'Deployment':
    case 'ReplicaSet':
      o.status = {};
      break;
    case 'DaemonSet':
      o.status = {};
      setTemplateGeneration(obj, 1);
      break;
    case 'PodDisruptionBudget':
      // poddisruptionbudget strategy PrepareForCreate: an empty status, whose int32 counters
      // policy/v1 always serializes (no omitempty), so they show as 0 until the controller runs
      o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
      break;
    case 'Namespace':
      o.spec = { finalizers: ['kubernetes'] };
      o.status = { phase: 'Active' };
      break;
  }
}

/**
 * BeforeUpdate + PrepareForUpdate for the main resource (subresource undefined) or "status".
 * Keeps server-owned metadata, the part of the object the endpoint may not change, and bumps
 * generation when the spec changed.
 */
export function prepareForUpdate(next: KubeObject, old: KubeObject, subresource: string | undefined): void {
  const m = next.metadata;
  const om = old.metadata;
  if (!m.uid) m.uid = om.uid;
  if (om.creationTimestamp) m.creationTimestamp = om.creationTimestamp;
  if (om.deletionTimestamp) m.deletionTimestamp = om.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  if (om.generation !== undefined) m.generation = om.generation;
  else delete m.generation;
  const n = next as unknown as Obj;
  const o = old as unknown as Obj;
  if (subresource === 'status') {
    n.spec = jsonClone(o.spec);
    // ResetObjectMetaForStatus: a status write cannot change labels, annotations, finalizers, owners
    next.metadata = { ...jsonClone(om)!, resourceVersion: m.resourceVersion ?? om.resourceVersion ?? '' };
    if (next.kind === 'Namespace' && isObj(n.spec)) n.spec = jsonClone(o.spec);
    return;
  }
  if (hasStatusSubresource(next.kind)) {
    if (o.status === undefined) delete n.status;
    else n.status = jsonClone(o.status);
  }
  // only /finalize may change a namespace's spec.finalizers (namespace strategy PrepareForUpdate)
  if (next.kind === 'Namespace' && subresource !== 'finalize') n.spec = jsonClone(o.spec);
  if (GENERATION_KINDS.has(next.kind ?? '') && JSON.stringify(n.spec) !== JSON.stringify(o.spec)) {
    m.generation = (om.generation ?? 0) + 1;
  }
  if (next.kind === 'DaemonSet') {
    // daemonset strategy PrepareForUpdate: templateGeneration counts template changes
    const oldGeneration = Number(om.annotations?.[TEMPLATE_GENERATION] ?? '0');
    const changed = JSON.stringify(isObj(n.spec) ? n.spec.template : undefined) !== JSON.stringify(isObj(o.spec) ? o.spec.template : undefined);
    setTemplateGeneration(next, changed ? oldGeneration + 1 : oldGeneration);
  }
}

/** apps/v1 keeps DaemonSet spec.templateGeneration in this annotation (pkg/apis/apps/v1 conversion). */
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

function setTemplateGeneration(obj: KubeObject, generation: number): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION]: String(generation) };
}

/** pkg/apis/core/helper/qos GetPodQOS, simplified: requests == limits for cpu and memory everywhere is Guaranteed. */
function qosClass(spec: unknown): string {
  const containers = isObj(spec) && Array.isArray(spec.containers) ? spec.containers : [];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const res = isObj(c) && isObj(c.resources) ? c.resources : {};
    const req = isObj(res.requests) ? res.requests : {};
    const lim = isObj(res.limits) ? res.limits : {};
    if (Object.keys(req).length + Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || String(q) !== String(l)) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** The objects we may hand to the scale subresource. */
export const hasScaleSubresource = (r: ResourceInfo): boolean => r.subresources.includes('scale');
