// Deployment status and conditions, mirroring pkg/controller/deployment/sync.go calculateStatus
// and progress.go syncRolloutStatus, plus util's DeploymentComplete / DeploymentProgressing /
// DeploymentTimedOut.
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '../../api/index.ts';
import { parseRFC3339 } from '../../api/index.ts';
import { fenceposts, replicasOf } from './util.ts';

const sum = (rss: readonly ReplicaSet[], f: (rs: ReplicaSet) => number | undefined): number => rss.reduce((n, rs) => n + (f(rs) ?? 0), 0);

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec.progressDeadlineSeconds;
  return s !== undefined && s !== 2_147_483_647;
}

function setCondition(conditions: DeploymentCondition[], c: DeploymentCondition): DeploymentCondition[] {
  const current = conditions.find((x) => x.type === c.type);
  if (current && current.status === c.status && current.reason === c.reason) {
    // same status and reason: keep the transition time (SetDeploymentCondition)
    c = { ...c, lastTransitionTime: current.lastTransitionTime ?? c.lastTransitionTime };
  }
  return [...conditions.filter((x) => x.type !== c.type), c];
}

function condition(type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string, now: string): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** calculateStatus: replica counts and the Available condition. */
export function calculateStatus(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined, now: string): DeploymentStatus {
  const availableReplicas = sum(allRSs, (rs) => rs.status?.availableReplicas);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: sum(allRSs, (rs) => rs.status?.replicas),
    updatedReplicas: newRS ? (newRS.status?.replicas ?? 0) : 0,
    readyReplicas: sum(allRSs, (rs) => rs.status?.readyReplicas),
    availableReplicas,
    unavailableReplicas: Math.max(0, sum(allRSs, (rs) => rs.spec.replicas) - availableReplicas),
    conditions: [...(d.status?.conditions ?? [])],
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  const minAvailable = replicasOf(d) - fenceposts(d).unavailable;
  const prior = status.conditions!.find((c) => c.type === 'Available');
  const next = availableReplicas >= minAvailable
    ? condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now)
    : condition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', now);
  // an unchanged condition keeps both of its times
  status.conditions = prior?.status === next.status && prior.reason === next.reason ? status.conditions : setCondition(status.conditions!, next);
  return status;
}

export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = replicasOf(d);
  return s.updatedReplicas === want && s.replicas === want && s.availableReplicas === want && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** DeploymentProgressing: some count moved toward the goal since the last status. */
function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  return (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0)
    || (old.replicas ?? 0) - (old.updatedReplicas ?? 0) > (s.replicas ?? 0) - (s.updatedReplicas ?? 0)
    || (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0)
    || (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** DeploymentTimedOut: no progress for progressDeadlineSeconds since the condition last changed. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  const c = s.conditions?.find((x) => x.type === 'Progressing');
  if (!c || c.reason === 'NewReplicaSetAvailable') return false;
  if (c.reason === 'ProgressDeadlineExceeded') return true;
  const fromMs = parseRFC3339(c.lastUpdateTime ?? '') ?? nowMs;
  return fromMs + (d.spec.progressDeadlineSeconds ?? 600) * 1000 < nowMs;
}

/** syncRolloutStatus's Progressing condition. */
export function withProgress(d: Deployment, s: DeploymentStatus, newRS: ReplicaSet | undefined, nowMs: number, now: string): DeploymentStatus {
  let conditions = [...(s.conditions ?? [])];
  if (!hasProgressDeadline(d)) return { ...s, conditions: conditions.filter((c) => c.type !== 'Progressing') };
  const current = conditions.find((c) => c.type === 'Progressing');
  if (current?.reason === 'DeploymentPaused') return s;
  const name = newRS?.metadata.name ?? '';
  if (deploymentComplete(d, s)) {
    if (current?.reason !== 'NewReplicaSetAvailable') {
      conditions = setCondition(conditions, condition('Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${name}" has successfully progressed.`, now));
    }
  } else if (deploymentProgressing(d, s)) {
    const c = condition('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`, now);
    // an existing True condition keeps its transition time; only lastUpdateTime moves
    if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime ?? now;
    conditions = [...conditions.filter((x) => x.type !== 'Progressing'), c];
  } else if (deploymentTimedOut(d, { ...s, conditions }, nowMs) && current?.reason !== 'ProgressDeadlineExceeded') {
    conditions = setCondition(conditions, condition('Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${name}" has timed out progressing.`, now));
  }
  return { ...s, conditions };
}

export { condition as deploymentCondition, setCondition as setDeploymentCondition };
