// POST pods/<name>/eviction: a delete that asks the pod's PodDisruptionBudget first.
// mirrors pkg/registry/core/pod/storage/eviction.go (EvictionREST.Create, canIgnorePDB,
// shouldEnforceResourceVersion, checkAndDecrement, getPodDisruptionBudgets): a pod that is not
// running (Pending, Succeeded, Failed, or already being deleted) is deleted at once; otherwise the
// one PDB that selects it must allow a disruption, which the eviction spends (disruptionsAllowed - 1,
// and the pod in status.disruptedPods so the disruption controller stops counting it as healthy)
// before the pod is deleted. Refusals are 429 TooManyRequests, which `kubectl drain` retries.
// A pod delete that lost a race is tried again up to 20 times, 500-550 ms apart (EvictionsRetry:
// Steps 20, Duration 500 ms, Jitter 0.1). Upstream re-reads the budget through a loopback client
// on the same schedule; here its conflicts are retried by guaranteedUpdate, at once.
import {
  budgetGuards, newBadRequest, newForbidden, newNotFound, newTooManyRequests, rfc3339,
  updateDisruptionAllowedCondition, type Pod, type PodDisruptionBudget, type Status,
} from '../../api/index.ts';
import { jsonClone } from '../encoding.ts';
import { SERVED_RESOURCES, storagePrefix } from '../resources.ts';
import { objectKey } from '../storage/keys.ts';
import { deletePod, type DeleteOptions } from './delete.ts';
import { isDryRun, keyOf, type Scope } from './scope.ts';

/** MaxDisruptedPodSize: evictions the controller has not confirmed yet, beyond which the API refuses more. */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** EvictionsRetry.Steps: how often a conflicting pod delete is tried again. */
const EVICTION_TRIES = 20;
/** EvictionsRetry.Duration, and Jitter 0.1 of it: a retry waits 500 ms plus up to 50 ms. */
const EVICTION_RETRY_MS = 500;
const EVICTION_RETRY_JITTER_MS = 50;

const PDB_RESOURCE = SERVED_RESOURCES.find((r) => r.group === 'policy' && r.resource === 'poddisruptionbudgets')!;
const PODS = { group: '', resource: 'pods' };

export const MSG_VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MSG_MULTIPLE_BUDGETS = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

interface EvictionBody {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown };
  deleteOptions?: { gracePeriodSeconds?: unknown; preconditions?: { uid?: unknown; resourceVersion?: unknown }; dryRun?: unknown };
}

export function handleEviction(s: Scope): void {
  const parsed = parseEviction(s);
  if ('status' in parsed) return s.fail(parsed.status);
  const { name, options } = parsed;
  const podKey = keyOf(s, s.req.namespace, name);
  let tries = 0;
  const attempt = (): void => {
    tries++;
    s.store.get(podKey, (r) => {
      if (!r.ok) return s.fail(r.status);
      if (!r.value) return s.fail(newNotFound(PODS, name));
      const pod = r.value.object as Pod;
      if (!canIgnorePDB(pod)) return evictWithBudget(s, pod, options);
      // a pod that is not running has disrupted nothing more by going: delete it, guarding against
      // it becoming ready meanwhile unless it is finished or already going
      const guarded = shouldEnforceResourceVersion(pod) && options.preconditions?.resourceVersion === undefined
        ? withResourceVersion(options, pod.metadata.resourceVersion ?? '')
        : options;
      deletePod(s, name, guarded, (res) => {
        if ('status' in res) {
          const retry = res.status.code === 409 && options.preconditions?.resourceVersion === undefined && tries < EVICTION_TRIES;
          if (!retry) return s.fail(res.status);
          return s.after(EVICTION_RETRY_MS + s.randomInt(EVICTION_RETRY_JITTER_MS + 1), attempt);
        }
        evicted(s, name);
      });
    });
  };
  attempt();
}

/** Decodes and checks the Eviction body; the request's dry run joins the body's delete options. */
function parseEviction(s: Scope): { name: string; options: DeleteOptions } | { status: Status } {
  const body = s.req.body as EvictionBody | undefined;
  if (typeof body !== 'object' || body === null || body.kind !== 'Eviction') {
    return { status: newBadRequest(`not a Eviction object: ${typeof body === 'object' && body !== null ? String(body.kind) : typeof body}`) };
  }
  if (body.apiVersion !== 'policy/v1' && body.apiVersion !== 'policy/v1beta1') {
    return { status: newBadRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (policy/v1)`) };
  }
  const name = s.req.name ?? '';
  if (body.metadata?.name !== name) return { status: newBadRequest('name in URL does not match name in Eviction object') };
  const d = body.deleteOptions ?? {};
  const options: DeleteOptions = {};
  if (typeof d.gracePeriodSeconds === 'number') options.gracePeriodSeconds = d.gracePeriodSeconds;
  const pre = d.preconditions;
  if (pre && (typeof pre.uid === 'string' || typeof pre.resourceVersion === 'string')) {
    options.preconditions = {};
    if (typeof pre.uid === 'string') options.preconditions.uid = pre.uid;
    if (typeof pre.resourceVersion === 'string') options.preconditions.resourceVersion = pre.resourceVersion;
  }
  const bodyDryRun = Array.isArray(d.dryRun) && d.dryRun.includes('All');
  // propagateDryRun: the query's dry run and the body's must not disagree when both are given
  if (Array.isArray(d.dryRun) && d.dryRun.length > 0 && s.req.query?.dryRun !== undefined && !bodyDryRun) {
    return { status: newBadRequest(`Non-matching dry-run options in request and content: [${s.req.query.dryRun}] and [${d.dryRun.join(' ')}]`) };
  }
  options.dryRun = isDryRun(s) || bodyDryRun;
  return { name, options };
}

/** canIgnorePDB: a pod that is not running, or is already going, is not guarded by its budget. */
export function canIgnorePDB(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

/** shouldEnforceResourceVersion: every pod but a finished or deleting one could turn ready meanwhile. */
function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

function withResourceVersion(options: DeleteOptions, resourceVersion: string): DeleteOptions {
  return { ...options, preconditions: { ...options.preconditions, resourceVersion } };
}

const isPodReady = (pod: Pod): boolean => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** getPodDisruptionBudgets: the budgets of the pod's namespace whose selector picks it (a nil or empty selector picks nothing). */
export function budgetsOf(pod: Pod, budgets: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  return budgets.filter((pdb) => pdb.metadata.namespace === pod.metadata.namespace && budgetGuards(pdb)(pod.metadata.labels ?? {}));
}

function evictWithBudget(s: Scope, pod: Pod, options: DeleteOptions): void {
  const name = pod.metadata.name ?? '';
  const cache = s.cacheFor(PDB_RESOURCE.group, PDB_RESOURCE.resource);
  const inNamespace = (cache?.list({ kind: PDB_RESOURCE.kind, namespace: pod.metadata.namespace ?? '' }) ?? []) as PodDisruptionBudget[];
  const budgets = budgetsOf(pod, inNamespace);
  if (budgets.length > 1) {
    // returned as the result, not as an error: a Status with code 500 and no reason
    s.stage('Validation', `${budgets.length} PodDisruptionBudgets select pod ${name}`, false);
    return s.respond(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: MSG_MULTIPLE_BUDGETS, code: 500 });
  }
  const pdb = budgets[0];
  if (pdb === undefined) return deleteGuarded(s, pod, options, false, undefined);
  // an unready pod does not count as healthy: evicting it spends nothing when the budget is met
  // (or always, with unhealthyPodEvictionPolicy AlwaysAllow)
  if (!isPodReady(pod)) {
    const status = pdb.status;
    const met = status !== undefined && status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0;
    if (pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' || met) return deleteGuarded(s, pod, options, true, pdb.metadata.name);
  }
  spendDisruption(s, pod, pdb, options, (err) => (err ? s.fail(err) : deleteGuarded(s, pod, options, false, pdb.metadata.name)));
}

/**
 * checkAndDecrement, as a guaranteedUpdate of the budget: a lost race re-decides on the budget's
 * latest state, as upstream's RetryOnConflict re-reads it.
 */
function spendDisruption(s: Scope, pod: Pod, pdb: PodDisruptionBudget, options: DeleteOptions, done: (err?: Status) => void): void {
  const key = objectKey(storagePrefix(PDB_RESOURCE), pdb.metadata.namespace, pdb.metadata.name ?? '');
  const cached = s.cacheFor(PDB_RESOURCE.group, PDB_RESOURCE.resource)?.get(key);
  s.store.guaranteedUpdate(
    key,
    (current, answer) => {
      if (!current) return answer({ action: 'abort', status: newNotFound({ group: 'policy', resource: 'poddisruptionbudgets' }, pdb.metadata.name ?? '') });
      const next = jsonClone(current.object) as PodDisruptionBudget;
      const refusal = checkAndDecrement(next, pod.metadata.name ?? '', s.nowMs());
      if (refusal) return answer({ action: 'abort', status: refusal });
      if (options.dryRun) return answer({ action: 'noop', object: next });
      answer({ action: 'put', object: next });
    },
    (r) => {
      if (!r.ok) return done(r.status);
      s.stage('Storage', `PodDisruptionBudget ${pdb.metadata.name ?? ''}: disruptionsAllowed now ${(r.value.object as PodDisruptionBudget | undefined)?.status?.disruptionsAllowed ?? '?'}`);
      done();
    },
    cached ? { object: cached, modRevision: Number(cached.metadata.resourceVersion) } : undefined,
  );
}

/** checkAndDecrement: the refusal, or undefined after spending one disruption on `podName`. */
export function checkAndDecrement(pdb: PodDisruptionBudget, podName: string, nowMs: number): Status | undefined {
  const status = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  const pdbName = pdb.metadata.name ?? '';
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) return stillProcessing(pdbName);
  if (status.disruptionsAllowed < 0) return newForbidden({ group: 'policy', resource: 'poddisruptionbudget' }, pdbName, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    return newForbidden({ group: 'policy', resource: 'poddisruptionbudget' }, pdbName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (status.disruptionsAllowed === 0) {
    const err = newTooManyRequests(MSG_VIOLATES_BUDGET, 0);
    err.details!.causes = [{ reason: 'DisruptionBudget', message: `The disruption budget ${pdbName} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently` }];
    return err;
  }
  pdb.status = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (pdb.status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(pdb, nowMs);
  pdb.status.disruptedPods = { ...status.disruptedPods, [podName]: rfc3339(nowMs) };
  return undefined;
}

/** createTooManyRequestsError: the budget's status is behind its spec (or a guarded delete lost a race). */
function stillProcessing(pdbName: string): Status {
  const err = newTooManyRequests(MSG_VIOLATES_BUDGET, 10);
  err.details!.causes = [{ reason: 'DisruptionBudget', message: `The disruption budget ${pdbName} is still being processed by the server.` }];
  return err;
}

/**
 * The pod delete after the budget said yes. An unready pod evicted for free is deleted only at the
 * revision that was judged: if it changed (it may have become ready), the client is told to retry.
 */
function deleteGuarded(s: Scope, pod: Pod, options: DeleteOptions, unreadyFree: boolean, pdbName: string | undefined): void {
  const name = pod.metadata.name ?? '';
  const guarded = unreadyFree ? withResourceVersion(options, pod.metadata.resourceVersion ?? '') : options;
  deletePod(s, name, guarded, (res) => {
    if ('status' in res) {
      const conflict = res.status.code === 409 && unreadyFree && options.preconditions?.resourceVersion === undefined;
      return s.fail(conflict ? stillProcessing(pdbName ?? '') : res.status);
    }
    evicted(s, name);
  });
}

function evicted(s: Scope, name: string): void {
  s.stage('Storage', `pod ${name} evicted`);
  s.respond(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
}
