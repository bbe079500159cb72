// kubectl rollout status|history|undo for Deployments and DaemonSets; restart for Deployments.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout (rollout_status.go, rollout_history.go,
// rollout_undo.go, rollout_restart.go) and polymorphichelpers (rollout_status.go for the status
// texts, objectrestarter.go for the restartedAt annotation); the per-kind revision sources of
// history and undo live in ../rollout-history.ts.
import type { DaemonSet, Deployment, KubeObject } from '../../../api/index.ts';
import { lookupResource, rfc3339, type ResourceInfo } from '../../../api/index.ts';
import { flagBool, flagInt, flagString } from '../args.ts';
import { canWatch } from './watch.ts';
import { watchUntil } from './watch-until.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { operationLine } from '../errors.ts';
import { resolveResourceArgs, typePrefix } from '../resources.ts';
import {
  HISTORY_KINDS,
  historyText,
  undoTarget,
  type HistoryKind,
  type Revision,
} from '../rollout-history.ts';

const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

/** The one-line status kubectl prints for a deployment, and whether the rollout is done. */
export function deploymentRolloutStatus(d: Deployment): RolloutStatus {
  const name = d.metadata.name ?? '';
  const s = d.status ?? {};
  if ((d.metadata.generation ?? 0) > (s.observedGeneration ?? 0))
    return { text: 'Waiting for deployment spec update to be observed...\n', done: false };
  const progressing = (s.conditions ?? []).find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded')
    return { text: '', done: false, error: `deployment "${name}" exceeded its progress deadline` };
  const desired = d.spec.replicas ?? 1;
  const updated = s.updatedReplicas ?? 0;
  if (updated < desired)
    return {
      text: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${desired} new replicas have been updated...\n`,
      done: false,
    };
  if ((s.replicas ?? 0) > updated)
    return {
      text: `Waiting for deployment "${name}" rollout to finish: ${(s.replicas ?? 0) - updated} old replicas are pending termination...\n`,
      done: false,
    };
  if ((s.availableReplicas ?? 0) < updated)
    return {
      text: `Waiting for deployment "${name}" rollout to finish: ${s.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
      done: false,
    };
  return { text: `deployment "${name}" successfully rolled out\n`, done: true };
}

interface RolloutStatus {
  text: string;
  done: boolean;
  error?: string;
}

/** DaemonSetStatusViewer.Status: only RollingUpdate DaemonSets have a rollout to follow. */
export function daemonSetRolloutStatus(ds: DaemonSet): RolloutStatus {
  const name = ds.metadata.name ?? '';
  const strategy = ds.spec.updateStrategy?.type ?? 'RollingUpdate';
  if (strategy !== 'RollingUpdate')
    return {
      text: '',
      done: true,
      error: 'rollout status is only available for RollingUpdate strategy type',
    };
  const s = ds.status;
  if ((ds.metadata.generation ?? 0) > (s?.observedGeneration ?? 0))
    return { text: 'Waiting for daemon set spec update to be observed...\n', done: false };
  const desired = s?.desiredNumberScheduled ?? 0;
  const updated = s?.updatedNumberScheduled ?? 0;
  if (updated < desired)
    return {
      text: `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...\n`,
      done: false,
    };
  const available = s?.numberAvailable ?? 0;
  if (available < desired)
    return {
      text: `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...\n`,
      done: false,
    };
  return { text: `daemon set "${name}" successfully rolled out\n`, done: true };
}

/** The status viewers kubectl has (polymorphichelpers.StatusViewerFor), by kind. */
const STATUS_VIEWERS: Readonly<Record<string, (o: KubeObject) => RolloutStatus>> = {
  Deployment: (o) => deploymentRolloutStatus(o as Deployment),
  DaemonSet: (o) => daemonSetRolloutStatus(o as DaemonSet),
};

/** restart here knows Deployments only (upstream also restarts DaemonSets and StatefulSets). */
function oneDeployment(
  ctx: Ctx,
  then: (d: Deployment) => void,
  done: () => void,
  missing: string,
): void {
  oneObject(
    ctx,
    (info) => (info.kind === 'Deployment' ? undefined : `${missing} ${info.kind}`),
    (o) => then(o as Deployment),
    done,
  );
}

/** Resolves the single TYPE/NAME argument, refuses kinds `refuse` names, and gets the object. */
function oneObject(
  ctx: Ctx,
  refuse: (info: ResourceInfo) => string | undefined,
  then: (o: KubeObject, info: ResourceInfo) => void,
  done: () => void,
): void {
  const resolved = resolveResourceArgs(ctx.args.positionals);
  if (!resolved.ok) {
    ctx.error(resolved.error);
    return done();
  }
  const request = resolved.requests[0];
  const name = request?.names[0];
  if (!request || name === undefined) {
    ctx.error('required resource not specified');
    return done();
  }
  const refusal = refuse(request.info);
  if (refusal !== undefined) {
    ctx.error(refusal);
    return done();
  }
  ctx.request(
    { verb: 'get', resource: gvr(request.info), namespace: ctx.namespace, name },
    (res) => {
      if (!res.ok) {
        ctx.statusError(res.status);
        return done();
      }
      then(res.body as KubeObject, request.info);
    },
  );
}

/**
 * Prints the status, then (with a watch stream and a window) each new status until the rollout
 * finishes, like rollout status's watch loop; without them, the current status once.
 */
export function runRolloutStatus(ctx: Ctx, done: () => void): void {
  oneObject(
    ctx,
    (info) =>
      STATUS_VIEWERS[info.kind]
        ? undefined
        : `no status viewer has been implemented for ${info.kind}`,
    (d, info) => {
      const viewer = STATUS_VIEWERS[info.kind]!;
      const status = viewer(d);
      if (status.error) ctx.error(status.error);
      else ctx.out(status.text);
      const watch = flagBool(ctx.args, 'watch') || !ctx.args.flags.has('watch');
      if (status.done || status.error || !watch || !canWatch(ctx)) return done();
      followRollout(ctx, d, info, viewer, status.text, done);
    },
    done,
  );
}

function followRollout(
  ctx: Ctx,
  d: KubeObject,
  info: ResourceInfo,
  viewer: (o: KubeObject) => RolloutStatus,
  lastText: string,
  done: () => void,
): void {
  let last = lastText;
  watchUntil<true>(ctx, {
    req: {
      verb: 'watch',
      resource: gvr(info),
      namespace: d.metadata.namespace ?? ctx.namespace,
      query: {
        fieldSelector: `metadata.name=${d.metadata.name ?? ''}`,
        resourceVersion: d.metadata.resourceVersion,
      },
    },
    windowMs: ctx.io.watchForMs!,
    onEvent: (event, end) => {
      if (event.type !== 'MODIFIED') return;
      const status = viewer(event.object as KubeObject);
      if (status.error) {
        ctx.error(status.error);
        return end(true);
      }
      if (status.text !== last) ctx.out(status.text);
      last = status.text;
      if (status.done) end(true);
    },
  }, done);
}

/** Resolves the workload and lists its revisions, for kinds with a history source. */
function withHistory(
  ctx: Ctx,
  missing: string,
  then: (owner: KubeObject, info: ResourceInfo, kind: HistoryKind, revisions: Revision[]) => void,
  done: () => void,
): void {
  oneObject(
    ctx,
    (info) => (HISTORY_KINDS[info.kind] ? undefined : `${missing} ${quotedGroupKind(info)}`),
    (owner, info) => {
      const kind = HISTORY_KINDS[info.kind]!;
      kind.revisions(ctx, owner, (revisions) =>
        revisions ? then(owner, info, kind, revisions) : done(),
      );
    },
    done,
  );
}

/** GroupKind.String() as %q prints it: "ReplicaSet.apps", "ConfigMap". */
const quotedGroupKind = (info: ResourceInfo): string =>
  `"${info.group ? `${info.kind}.${info.group}` : info.kind}"`;

/** rollout_history.go: the name line, then the REVISION table or one revision's pod template. */
export function runRolloutHistory(ctx: Ctx, done: () => void): void {
  const wanted = flagInt(ctx.args, 'revision') ?? 0;
  withHistory(
    ctx,
    'no history viewer has been implemented for',
    (owner, info, _kind, revisions) => {
      const text = historyText(revisions, wanted);
      if (!text.ok) {
        ctx.error(text.error);
        return done();
      }
      const operation = wanted > 0 ? `with revision #${wanted}` : '';
      ctx.out(`${typePrefix(info)}/${owner.metadata.name ?? ''} ${operation}\n${text.value}\n`);
      done();
    },
    done,
  );
}

/**
 * rollout_undo.go with DeploymentRollbacker / DaemonSetRollbacker: patches the chosen revision's
 * template back (a JSON patch for Deployments, the ControllerRevision's strategic merge patch for
 * DaemonSets), or skips when the workload already runs it.
 */
export function runRolloutUndo(ctx: Ctx, done: () => void): void {
  const toRevision = flagInt(ctx.args, 'to-revision') ?? 0;
  withHistory(
    ctx,
    'no rollbacker has been implemented for',
    (owner, info, kind, revisions) => {
      const target = undoTarget(kind, owner, revisions, toRevision);
      if (typeof target === 'string') {
        ctx.error(target);
        return done();
      }
      const name = owner.metadata.name ?? '';
      if (flagString(ctx.args, 'dry-run') === 'client') {
        // the name printer with the Rollbacker's result as its operation, " (dry run)" appended
        ctx.out(`${typePrefix(info)}/${name} ${kind.dryRunResult(target)} (dry run)\n`);
        return done();
      }
      if ((owner as Deployment).kind === 'Deployment' && (owner as Deployment).spec.paused) {
        ctx.error(
          `you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${name}' and try again`,
        );
        return done();
      }
      if (kind.matches(owner, target)) {
        ctx.out(
          `${typePrefix(info)}/${name} skipped rollback (current template already matches revision ${toRevision})\n`,
        );
        return done();
      }
      const patch = kind.rollbackPatch(owner, target);
      sendPatch(ctx, info, owner, patch.type, patch.body, 'rolled back', done);
    },
    done,
  );
}

/** objectrestarter.go: a strategic merge patch setting the restartedAt annotation on the template. */
export function runRolloutRestart(ctx: Ctx, done: () => void): void {
  oneDeployment(
    ctx,
    (d) => {
      const body = {
        spec: { template: { metadata: { annotations: { [RESTARTED_AT]: rfc3339(ctx.nowMs) } } } },
      };
      sendPatch(ctx, lookupResource('deployments')!, d, 'strategic', body, 'restarted', done);
    },
    done,
    'restarting is not supported for',
  );
}

/** Patches the workload; the name line names it by its qualified resource ("daemonset.apps"). */
function sendPatch(
  ctx: Ctx,
  info: ResourceInfo,
  o: KubeObject,
  patchType: 'json' | 'strategic',
  body: unknown,
  op: 'rolled back' | 'restarted',
  done: () => void,
): void {
  ctx.request(
    {
      verb: 'patch',
      resource: gvr(info),
      namespace: o.metadata.namespace ?? ctx.namespace,
      name: o.metadata.name,
      body,
      query: { patchType },
    },
    (res) => {
      if (res.ok) ctx.out(operationLine(typePrefix(info), o.metadata.name ?? '', op));
      else ctx.statusError(res.status);
      done();
    },
  );
}
