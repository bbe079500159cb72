// kubectl rollout status for Deployments and DaemonSets; history|undo|restart for Deployments.
// mirrors staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go (the status texts),
// history.go (REVISION/CHANGE-CAUSE from ReplicaSet revision annotations), rollback.go (undo
// copies the revision's pod template back) and objectrestarter.go (restartedAt annotation).
import type { DaemonSet, Deployment, KubeObject, ReplicaSet } from '../../../api/index.ts';
import { lookupResource, rfc3339, type ResourceInfo } from '../../../api/index.ts';
import { flagBool, flagInt } from '../args.ts';
import { canWatch } from './watch.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { operationLine } from '../errors.ts';
import { alignTabs, DESCRIBE_TABWRITER } from '../printers/tabwriter.ts';
import { resolveResourceArgs } from '../resources.ts';
import type { ObjectList } from '../transport.ts';

const REVISION = 'deployment.kubernetes.io/revision';
const CHANGE_CAUSE = 'kubernetes.io/change-cause';
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

/** history, undo and restart here know Deployments only (upstream also has DaemonSet and StatefulSet). */
function oneDeployment(
  ctx: Ctx,
  then: (d: Deployment) => void,
  done: () => void,
  missing: string,
): void {
  oneObject(
    ctx,
    (kind) => (kind === 'Deployment' ? undefined : `${missing} ${kind}`),
    (o) => then(o as Deployment),
    done,
  );
}

/** Resolves the single TYPE/NAME argument, refuses kinds `refuse` names, and gets the object. */
function oneObject(
  ctx: Ctx,
  refuse: (kind: string) => string | undefined,
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
  const refusal = refuse(request.info.kind);
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
    (kind) =>
      STATUS_VIEWERS[kind] ? undefined : `no status viewer has been implemented for ${kind}`,
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
  let finished = false;
  let last = lastText;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    stream.stop();
    done();
  };
  const stream = ctx.transport.watch!(
    {
      verb: 'watch',
      resource: gvr(info),
      namespace: d.metadata.namespace ?? ctx.namespace,
      query: {
        fieldSelector: `metadata.name=${d.metadata.name ?? ''}`,
        resourceVersion: d.metadata.resourceVersion,
      },
    },
    (event) => {
      if (finished || event.type !== 'MODIFIED') return;
      const status = viewer(event.object as KubeObject);
      if (status.error) {
        ctx.error(status.error);
        return finish();
      }
      if (status.text !== last) ctx.out(status.text);
      last = status.text;
      if (status.done) finish();
    },
  );
  ctx.io.after!(ctx.io.watchForMs!, finish);
}

/** ReplicaSets controlled by the deployment, by revision number. */
function ownedReplicaSets(ctx: Ctx, d: Deployment, then: (sets: ReplicaSet[]) => void): void {
  const rs = lookupResource('replicasets')!;
  ctx.request(
    { verb: 'list', resource: gvr(rs), namespace: d.metadata.namespace ?? ctx.namespace },
    (res) => {
      if (!res.ok) {
        ctx.statusError(res.status);
        return then([]);
      }
      const items = (res.body as ObjectList).items as ReplicaSet[];
      const owned = items.filter((r) =>
        (r.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === d.metadata.uid),
      );
      then(owned.sort((a, b) => revisionOf(a) - revisionOf(b)));
    },
  );
}

const revisionOf = (o: KubeObject): number => Number(o.metadata.annotations?.[REVISION] ?? '0');

export function runRolloutHistory(ctx: Ctx, done: () => void): void {
  oneDeployment(
    ctx,
    (d) =>
      ownedReplicaSets(ctx, d, (sets) => {
        const rows = [
          'REVISION\tCHANGE-CAUSE',
          ...sets.map(
            (r) => `${revisionOf(r)}\t${r.metadata.annotations?.[CHANGE_CAUSE] || '<none>'}`,
          ),
        ];
        ctx.out(
          `deployment.apps/${d.metadata.name ?? ''} \n${alignTabs(rows.join('\n') + '\n', DESCRIBE_TABWRITER)}\n`,
        );
        done();
      }),
    done,
    'no history viewer has been implemented for',
  );
}

/** The pod template a revision ran, without the pod-template-hash label the controller adds. */
function templateOf(rs: ReplicaSet): Deployment['spec']['template'] {
  const template = JSON.parse(JSON.stringify(rs.spec.template)) as Deployment['spec']['template'];
  if (template.metadata?.labels) delete template.metadata.labels['pod-template-hash'];
  return template;
}

export function runRolloutUndo(ctx: Ctx, done: () => void): void {
  const toRevision = flagInt(ctx.args, 'to-revision') ?? 0;
  oneDeployment(
    ctx,
    (d) =>
      ownedReplicaSets(ctx, d, (sets) => {
        const current = revisionOf(d);
        const target =
          toRevision > 0
            ? sets.find((r) => revisionOf(r) === toRevision)
            : [...sets].reverse().find((r) => revisionOf(r) < current);
        if (!target) {
          ctx.error(
            toRevision > 0
              ? `unable to find specified revision ${toRevision} in history`
              : 'no rollout history found for deployment "' + (d.metadata.name ?? '') + '"',
          );
          return done();
        }
        const template = templateOf(target);
        if (JSON.stringify(template) === JSON.stringify(d.spec.template)) {
          ctx.out(
            `deployment.apps/${d.metadata.name ?? ''} skipped rollback (current template already matches revision ${revisionOf(target)})\n`,
          );
          return done();
        }
        const next = { ...d, spec: { ...d.spec, template } };
        update(ctx, next, 'rolled back', done);
      }),
    done,
    'no rollbacker has been implemented for',
  );
}

export function runRolloutRestart(ctx: Ctx, done: () => void): void {
  oneDeployment(
    ctx,
    (d) => {
      const template = d.spec.template;
      const metadata = {
        ...(template.metadata ?? {}),
        annotations: {
          ...(template.metadata?.annotations ?? {}),
          [RESTARTED_AT]: rfc3339(ctx.nowMs),
        },
      };
      update(
        ctx,
        { ...d, spec: { ...d.spec, template: { ...template, metadata } } },
        'restarted',
        done,
      );
    },
    done,
    'restarting is not supported for',
  );
}

function update(ctx: Ctx, d: Deployment, op: 'rolled back' | 'restarted', done: () => void): void {
  const info = lookupResource('deployments')!;
  ctx.request(
    {
      verb: 'update',
      resource: gvr(info),
      namespace: d.metadata.namespace ?? ctx.namespace,
      name: d.metadata.name,
      body: d,
    },
    (res) => {
      if (res.ok) ctx.out(operationLine('deployment.apps', d.metadata.name ?? '', op));
      else ctx.statusError(res.status);
      done();
    },
  );
}
