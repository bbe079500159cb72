// kubectl drain: cordon the node, then evict (or delete) its pods and wait until they are gone.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (RunDrain, deleteOrEvictPodsSimple)
// and staging/src/k8s.io/kubectl/pkg/drain/{drain.go,filters.go} (GetPodsForDeletion's filters,
// evictPods, deletePods, waitForDelete). Evictions run side by side, one loop per pod: a 429 from a
// PodDisruptionBudget is retried every 5 s, then the pod is polled every second until it is gone.
// Real kubectl with --timeout=0 waits forever (until Ctrl+C); this terminal is not interactive, so
// it stops after io.waitForeverMs as if --timeout had been given that value.
import type { Pod } from '../../../api/index.ts';
import { flagBool, flagDurationMs, flagInt, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { operationLine } from '../errors.ts';
import { aggregateText, formatGoDuration, lookupResource } from '../../../api/index.ts';
import type { KubeResponse, ObjectList } from '../transport.ts';
import { runCordon } from './mutate.ts';

const EVICTION_RETRY_MS = 5_000;
const DELETE_POLL_MS = 1_000;

const podKey = (p: Pod): string => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
const isFinished = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export function runDrain(ctx: Ctx, done: () => void): void {
  const nodeName = ctx.args.positionals[0];
  if (nodeName === undefined) {
    ctx.error('USAGE: drain NODE [flags]');
    return done();
  }
  const timeoutMs = flagDurationMs(ctx.args, 'timeout') ?? 0;
  const positionals = [...ctx.args.positionals];
  runCordon(ctx, true, () => {
    ctx.args.positionals = positionals;
    if (ctx.failed) return done();
    const drainer = new Drainer(ctx, nodeName, timeoutMs);
    drainer.run((err) => {
      if (err === undefined) {
        ctx.out(operationLine('node', nodeName, 'drained', ctx.dryRunPrint));
      } else {
        // RunDrain: the node stays pending, and the command's error lists every cause on its own line
        ctx.stderr += `error: unable to drain node ${JSON.stringify(nodeName)} due to error: ${aggregateText(err)}, continuing command...\n`;
        ctx.stderr += `There are pending nodes to be drained:\n ${nodeName}\n${err.join('\n')}\n`;
        ctx.failed = true;
      }
      done();
    });
  });
}

/** The pods GetPodsForDeletion keeps, its one-line warning, and its errors. */
export interface DrainPlan {
  pods: Pod[];
  warning: string;
  errors: string[];
}

interface DrainFlags {
  ignoreDaemonSets: boolean;
  force: boolean;
  deleteEmptyDirData: boolean;
}

type Verdict = { delete: boolean; warning?: string; error?: string };

/**
 * GetPodsForDeletion's filters, in upstream order (daemonSet, mirrorPod, localStorage,
 * unreplicated): the first that keeps a pod decides; a later one that lets it go replaces an
 * earlier warning (the TODO in filters.go). Warnings and errors group pods by message, in filter
 * order (upstream walks a Go map, whose order varies from run to run).
 */
export function planDrain(pods: readonly Pod[], flags: DrainFlags): DrainPlan {
  const filters: ((p: Pod) => Verdict)[] = [
    (p) => {
      const ref = (p.metadata.ownerReferences ?? []).find((o) => o.controller);
      if (ref?.kind !== 'DaemonSet' || isFinished(p)) return { delete: true };
      return flags.ignoreDaemonSets ? { delete: false, warning: 'ignoring DaemonSet-managed Pods' } : { delete: false, error: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)' };
    },
    (p) => ({ delete: p.metadata.annotations?.['kubernetes.io/config.mirror'] === undefined }),
    (p) => {
      if (!(p.spec.volumes ?? []).some((v) => v.emptyDir !== undefined) || isFinished(p)) return { delete: true };
      return flags.deleteEmptyDirData ? { delete: true, warning: 'deleting Pods with local storage' } : { delete: false, error: 'Pods with local storage (use --delete-emptydir-data to override)' };
    },
    (p) => {
      if (isFinished(p) || (p.metadata.ownerReferences ?? []).some((o) => o.controller)) return { delete: true };
      return flags.force ? { delete: true, warning: 'deleting Pods that declare no controller' } : { delete: false, error: 'cannot delete Pods that declare no controller (use --force to override)' };
    },
  ];
  const keep: Pod[] = [];
  const warnings = new Map<string, string[]>();
  const errors = new Map<string, string[]>();
  for (const p of pods) {
    let verdict: Verdict = { delete: true };
    for (const filter of filters) {
      verdict = filter(p);
      if (!verdict.delete) break;
    }
    if (verdict.delete) keep.push(p);
    const group = verdict.error !== undefined ? [errors, verdict.error] as const : verdict.warning !== undefined ? [warnings, verdict.warning] as const : undefined;
    if (group) group[0].set(group[1], [...(group[0].get(group[1]) ?? []), podKey(p)]);
  }
  return {
    pods: keep,
    warning: [...warnings].map(([msg, keys]) => `${msg}: ${keys.join(', ')}`).join('; '),
    errors: [...errors].map(([msg, keys]) => `${msg.toLowerCase().startsWith('cannot delete') ? msg : `cannot delete ${msg}`}: ${keys.join(', ')}`),
  };
}

/** One node's drain after the cordon: list, filter, evict or delete, wait. */
class Drainer {
  private readonly deadlineMs: number;
  private readonly timeoutText: string;
  private readonly podsResource = lookupResource('pods')!;

  constructor(private readonly ctx: Ctx, private readonly nodeName: string, timeoutMs: number) {
    const windowMs = timeoutMs > 0 ? timeoutMs : ctx.io.waitForeverMs;
    this.deadlineMs = windowMs === undefined ? Infinity : ctx.nowMs + windowMs;
    this.timeoutText = formatGoDuration(windowMs ?? 0);
  }

  run(done: (err?: string[]) => void): void {
    this.podsForDeletion((plan, listError) => {
      if (listError !== undefined) return done([listError]);
      if (plan.errors.length > 0) return done(plan.errors);
      if (plan.warning !== '') this.ctx.stderr += `Warning: ${plan.warning}\n`;
      const dryRun = flagString(this.ctx.args, 'dry-run');
      if (dryRun === 'client') {
        for (const p of plan.pods) this.ctx.out(`evicting pod ${podKey(p)} (dry run)\n`);
        return done();
      }
      const act = flagBool(this.ctx.args, 'disable-eviction') ? this.deletePods : this.evictPods;
      act.call(this, plan.pods, (errs) => {
        if (errs.length === 0) return done();
        this.reportPending(aggregateText(errs), () => done([aggregateText(errs)]));
      });
    });
  }

  private podsForDeletion(then: (plan: DrainPlan, listError?: string) => void): void {
    const selector = flagString(this.ctx.args, 'pod-selector');
    const query: { fieldSelector: string; labelSelector?: string } = { fieldSelector: `spec.nodeName=${this.nodeName}` };
    if (selector) query.labelSelector = selector;
    this.ctx.request({ verb: 'list', resource: gvr(this.podsResource), query }, (res) => {
      if (!res.ok) return then({ pods: [], warning: '', errors: [] }, res.status.message ?? '');
      const pods = (res.body as ObjectList).items as Pod[];
      then(planDrain(pods, {
        ignoreDaemonSets: flagBool(this.ctx.args, 'ignore-daemonsets'),
        force: flagBool(this.ctx.args, 'force'),
        deleteEmptyDirData: flagBool(this.ctx.args, 'delete-emptydir-data'),
      }));
    });
  }

  /** deleteOrEvictPodsSimple: after a failure, name the pods still on the node. */
  private reportPending(err: string, done: () => void): void {
    this.podsForDeletion((plan) => {
      if (plan.pods.length > 0) {
        this.ctx.stderr += `There are pending pods in node ${JSON.stringify(this.nodeName)} when an error occurred: ${err}\n`;
        for (const p of plan.pods) this.ctx.stderr += `pod/${p.metadata.name ?? ''}\n`;
      }
      done();
    });
  }

  /** The global timeout (context.WithTimeout) has passed. */
  private expired(): boolean {
    return this.ctx.nowMs >= this.deadlineMs;
  }

  /** Sleeps, if this terminal has a clock; false when it has none (a wait would never end). */
  private after(delayMs: number, fn: () => void): boolean {
    if (!this.ctx.io.after) return false;
    this.ctx.io.after(delayMs, fn);
    return true;
  }

  /** evictPods: every pod at once; each finishes with no error, or one. */
  private evictPods(pods: readonly Pod[], done: (errs: string[]) => void): void {
    const errs: string[] = [];
    let pending = pods.length;
    if (pending === 0) return done(errs);
    const finish = (err?: string): void => {
      if (err !== undefined) errs.push(err);
      if (--pending === 0) done(errs);
    };
    const graceSeconds = flagInt(this.ctx.args, 'grace-period') ?? -1;
    const serverDryRun = flagString(this.ctx.args, 'dry-run') === 'server';
    for (const pod of pods) {
      const name = pod.metadata.name ?? '';
      const namespace = pod.metadata.namespace ?? '';
      const timedOut = `error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(namespace)}: global timeout reached: ${this.timeoutText}`;
      const attempt = (): void => {
        this.ctx.out(`evicting pod ${podKey(pod)}${serverDryRun ? ' (server dry run)' : ''}\n`);
        if (this.expired()) return finish(timedOut);
        const body: Record<string, unknown> = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } };
        if (graceSeconds >= 0) body.deleteOptions = { gracePeriodSeconds: graceSeconds };
        this.ctx.request(
          { verb: 'create', resource: gvr(this.podsResource), namespace, name, subresource: 'eviction', body },
          (res) => {
            if (res.ok) return serverDryRun ? finish() : this.waitForDelete(pod, 'evicted', finish);
            if (res.status.code === 404) return finish();
            const message = res.status.message ?? '';
            if (res.status.code === 429) {
              this.ctx.stderr += `error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(namespace)} (will retry after 5s): ${message}\n`;
              if (this.after(EVICTION_RETRY_MS, attempt)) return;
              return finish(timedOut);
            }
            finish(`error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(namespace)}: ${message}`);
          },
        );
      };
      attempt();
    }
  }

  /** deletePods (--disable-eviction): DELETE each pod, then wait for all of them. */
  private deletePods(pods: readonly Pod[], done: (errs: string[]) => void): void {
    const graceSeconds = flagInt(this.ctx.args, 'grace-period') ?? -1;
    const next = (i: number): void => {
      if (i >= pods.length) return this.waitAll(pods, done);
      const pod = pods[i]!;
      const query = graceSeconds >= 0 ? { gracePeriodSeconds: graceSeconds } : undefined;
      this.ctx.request(
        { verb: 'delete', resource: gvr(this.podsResource), namespace: pod.metadata.namespace, name: pod.metadata.name, ...(query ? { query } : {}) },
        (res: KubeResponse) => {
          if (!res.ok && res.status.code !== 404) return done([res.status.message ?? '']);
          next(i + 1);
        },
      );
    };
    next(0);
  }

  private waitAll(pods: readonly Pod[], done: (errs: string[]) => void): void {
    let pending = pods.length;
    const errs: string[] = [];
    if (pending === 0) return done(errs);
    for (const pod of pods) {
      this.waitForDelete(pod, 'deleted', (err) => {
        if (err !== undefined && errs.length === 0) errs.push(err);
        if (--pending === 0) done(errs);
      });
    }
  }

  /** waitForDelete: poll at once, then every second, until the pod is gone or replaced by a namesake. */
  private waitForDelete(pod: Pod, verb: 'evicted' | 'deleted', finish: (err?: string) => void): void {
    const poll = (): void => {
      this.ctx.request(
        { verb: 'get', resource: gvr(this.podsResource), namespace: pod.metadata.namespace, name: pod.metadata.name },
        (res) => {
          const gone = (!res.ok && res.status.code === 404) || (res.ok && (res.body as Pod).metadata.uid !== pod.metadata.uid);
          if (gone) {
            this.ctx.out(operationLine('pod', pod.metadata.name ?? '', verb));
            return finish();
          }
          if (!res.ok) return finish(`error when waiting for pod ${JSON.stringify(pod.metadata.name ?? '')} in namespace ${JSON.stringify(pod.metadata.namespace ?? '')} to terminate: ${res.status.message ?? ''}`);
          if (!this.expired() && this.after(DELETE_POLL_MS, poll)) return;
          finish(verb === 'evicted'
            ? `error when waiting for pod ${JSON.stringify(pod.metadata.name ?? '')} in namespace ${JSON.stringify(pod.metadata.namespace ?? '')} to terminate: global timeout reached: ${this.timeoutText}`
            : `global timeout reached: ${this.timeoutText}`);
        },
      );
    };
    poll();
  }
}
