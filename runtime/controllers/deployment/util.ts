// Pure arithmetic of the Deployment controller, mirroring pkg/controller/deployment/util/
// deployment_util.go and apimachinery intstr.GetScaledValueFromIntOrPercent.
import type { Deployment, IntOrString, PodTemplateSpec, ReplicaSet } from '../../api/index.ts';
import { fnv1a32 } from '../../kernel/index.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
const SKIPPED_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration', REVISION_ANNOTATION, 'deployment.kubernetes.io/revision-history', DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, 'deprecated.deployment.rollback.to']);

export type Scaled = { ok: true; value: number } | { ok: false; error: string };

/** intstr.GetScaledValueFromIntOrPercent: "25%" of total, rounded up or down; an int as is. */
export function getScaledValueFromIntOrPercent(value: IntOrString, total: number, roundUp: boolean): Scaled {
  if (typeof value === 'number') return { ok: true, value };
  if (!value.endsWith('%')) return { ok: false, error: `invalid type: string is not a percentage` };
  const digits = value.slice(0, -1);
  if (!/^-?\d+$/.test(digits)) return { ok: false, error: `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax` };
  const scaled = (Number(digits) * total) / 100;
  return { ok: true, value: roundUp ? Math.ceil(scaled) : Math.floor(scaled) };
}

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down; both zero makes unavailable 1. */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): { surge: number; unavailable: number } | { error: string } {
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? '25%', desired, true);
  if (!surge.ok) return { error: surge.error };
  const unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? '25%', desired, false);
  if (!unavailable.ok) return { error: unavailable.error };
  if (surge.value === 0 && unavailable.value === 0) return { surge: 0, unavailable: 1 };
  return { surge: surge.value, unavailable: unavailable.value };
}

export function replicasOf(d: Deployment): number {
  return d.spec.replicas ?? 1;
}

export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** MaxSurge / MaxUnavailable for a Deployment (0 surge, 0 unavailable under Recreate). */
export function fenceposts(d: Deployment): { surge: number; unavailable: number } {
  if (!isRollingUpdate(d)) return { surge: 0, unavailable: 0 };
  const r = resolveFenceposts(d.spec.strategy?.rollingUpdate?.maxSurge, d.spec.strategy?.rollingUpdate?.maxUnavailable, replicasOf(d));
  if ('error' in r) return { surge: 0, unavailable: 1 };
  return { surge: r.surge, unavailable: Math.min(r.unavailable, replicasOf(d)) };
}

export function rsReplicas(rs: ReplicaSet): number {
  return rs.spec.replicas ?? 0;
}

/** NewRSNewReplicas: how big the new ReplicaSet may be now. */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (!isRollingUpdate(d)) return replicasOf(d);
  const current = allRSs.reduce((n, rs) => n + rsReplicas(rs), 0);
  const maxTotal = replicasOf(d) + fenceposts(d).surge;
  if (current >= maxTotal) return rsReplicas(newRS);
  const scaleUp = Math.min(maxTotal - current, replicasOf(d) - rsReplicas(newRS));
  return rsReplicas(newRS) + scaleUp;
}

export function revisionOf(rs: ReplicaSet): number {
  const n = Number(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '0');
  return Number.isFinite(n) ? n : 0;
}

export function maxRevision(rss: readonly ReplicaSet[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/** EqualIgnoreHash: templates equal once the pod-template-hash label is removed. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return canonicalJSON(withoutHash(a)) === canonicalJSON(withoutHash(b));
}

function withoutHash(t: PodTemplateSpec | undefined): unknown {
  if (!t) return {};
  const labels = { ...(t.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return { ...t, metadata: { ...(t.metadata ?? {}), labels } };
}

/** JSON with sorted keys: the same template always hashes the same. */
export function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * ComputeHash: FNV-32a over the template and collisionCount, printed in decimal and encoded with
 * rand.SafeEncodeString. Upstream hashes Go's spew dump of the struct; we hash canonical JSON,
 * so the letters differ from a real cluster's but have the same shape ("7d4b9c8f5").
 */
export function computeHash(template: PodTemplateSpec, collisionCount: number | undefined): string {
  const text = canonicalJSON(withoutHash(template)) + (collisionCount !== undefined ? String(collisionCount) : '');
  const decimal = String(fnv1a32(text));
  return Array.from(decimal, (ch) => SAFE_ALPHANUMS[ch.charCodeAt(0) % SAFE_ALPHANUMS.length]!).join('');
}

/** copyDeploymentAnnotationsToReplicaSet: the deployment's own annotations (change-cause...). */
export function copiedAnnotations(d: Deployment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (!SKIPPED_ANNOTATIONS.has(k)) out[k] = v;
  return out;
}

export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
/** deployment_controller.go maxRevHistoryLengthInChars. */
export const MAX_REVISION_HISTORY_CHARS = 2000;

/**
 * SetNewReplicaSetAnnotations for an existing new ReplicaSet: copy the deployment's own
 * annotations (change-cause...) over the ReplicaSet's (copyDeploymentAnnotationsToReplicaSet adds
 * and overwrites, never removes), raise its revision to newRevision if lower, and when a revision
 * it already had is replaced (a rollback reuses an old ReplicaSet) append the old one to
 * revision-history, dropping the oldest entries past 2,000 characters. `changed` says whether
 * the ReplicaSet must be written.
 */
export function newReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: number): { annotations: Record<string, string>; changed: boolean } {
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(copiedAnnotations(d))) {
    if (annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const oldText = annotations[REVISION_ANNOTATION];
  const oldRevision = oldText === undefined ? 0 : Number(oldText);
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldText !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
      if (history === '') annotations[REVISION_HISTORY_ANNOTATION] = oldText;
      else {
        let entries = history.split(',');
        let total = history.length + oldText.length + 1;
        while (total > MAX_REVISION_HISTORY_CHARS && entries.length > 0) {
          total -= entries[0]!.length + 1;
          entries = entries.slice(1);
        }
        if (total <= MAX_REVISION_HISTORY_CHARS) annotations[REVISION_HISTORY_ANNOTATION] = [...entries, oldText].join(',');
      }
    }
  }
  return { annotations, changed };
}

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}
