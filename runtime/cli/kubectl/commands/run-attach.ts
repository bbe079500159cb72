// `kubectl run NAME -i|--attach [--rm] --restart=Never -- COMMAND`: after creating the pod, wait
// for it to run (or finish), attach to its container's output, wait for it to finish, pass on its
// exit code, and delete it under --rm. mirrors staging/src/k8s.io/kubectl/pkg/cmd/run/run.go (Run's
// attach branch, handleAttachPod, waitForPod with podRunningAndReady and podCompleted) and attach.go.
// Attaching here reads what the container writes from that moment on (pods/log since then), as an
// attached stream would; a pod that finished before kubectl saw it run has its whole log printed, as
// handleAttachPod's logOpts does.
import { lookupResource, parseRFC3339, rfc3339, type Pod } from '../../../api/index.ts';
import { flagBool, flagDurationMs, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { deletedLine } from '../errors.ts';
import { watchUntil } from './watch-until.ts';

/** cmdutil.AddPodRunningTimeoutFlag's default for run: how long to wait for the pod to run. */
const POD_RUNNING_TIMEOUT_MS = 60_000;
/** How long this non-interactive terminal stays attached when no io.waitForeverMs is given. */
const ATTACH_WINDOW_MS = 90_000;

type PodCondition = (pod: Pod) => boolean;
const completed: PodCondition = (p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
/** podRunningAndReady: Running with Ready True, or already completed. */
const runningAndReady: PodCondition = (p) =>
  completed(p) || (p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));

/** The refusals run.go makes before creating anything when attaching; undefined when the flags make sense. */
export function attachRefusal(ctx: Ctx): string | undefined {
  const usage = "\nSee 'kubectl run -h' for help and examples";
  if (flagBool(ctx.args, 'tty') && !flagBool(ctx.args, 'stdin')) return `-i/--stdin is required for containers with -t/--tty=true${usage}`;
  const attach = attaches(ctx);
  if (flagBool(ctx.args, 'rm') && !attach) return `--rm should only be used for attached containers${usage}`;
  if (attach && flagString(ctx.args, 'dry-run') !== undefined && flagString(ctx.args, 'dry-run') !== 'none') {
    return `--dry-run can't be used with attached containers options (--attach, --stdin, or --tty)${usage}`;
  }
  // a restarting container's session ends only when someone detaches: not something this terminal can do
  if (attach && flagString(ctx.args, 'restart') === 'Always') {
    return 'attaching to a pod that restarts its container (--restart=Always) is not simulated here: use --restart=Never';
  }
  return undefined;
}

/** run.go Complete: --attach, or -i unless --attach=false was given. */
export function attaches(ctx: Ctx): boolean {
  return ctx.args.flags.has('attach') ? flagBool(ctx.args, 'attach') : flagBool(ctx.args, 'stdin');
}

/** Everything after the pod was created, until kubectl exits. */
export function attachToRun(ctx: Ctx, pod: Pod, done: () => void): void {
  const name = pod.metadata.name ?? '';
  const namespace = ctx.namespace;
  const timeoutMs = flagDurationMs(ctx.args, 'pod-running-timeout') ?? POD_RUNNING_TIMEOUT_MS;
  const remove = flagBool(ctx.args, 'rm');
  const finish = (): void => {
    if (!remove) return done();
    ctx.request({ verb: 'delete', resource: gvr(lookupResource('pods')!), namespace, name }, (res) => {
      if (res.ok) ctx.out(deletedLine('pod', name));
      else ctx.statusError(res.status);
      done();
    });
  };
  waitForPod(ctx, name, timeoutMs, runningAndReady, (seen) => {
    if (!seen) {
      ctx.error('timed out waiting for the condition');
      return finish();
    }
    // handleAttachPod: a pod that already finished has its log printed instead. An attach that
    // comes after a quick container already exited falls back to streaming its logs too ("warning:
    // couldn't attach to pod/..., falling back to streaming logs"), so what the container wrote
    // since it started is shown, not just what it writes after kubectl saw it run.
    const startedAt = seen.status?.containerStatuses?.[0]?.state?.running?.startedAt;
    const since = completed(seen) ? undefined : startedAt !== undefined ? parseRFC3339(startedAt) ?? ctx.nowMs : ctx.nowMs;
    if (since !== undefined) {
      // attach.go SetupTTY, then its prompt hint
      if (flagBool(ctx.args, 'tty') && !flagBool(ctx.args, 'quiet')) ctx.stderr += 'Unable to use a TTY - input is not a terminal or the right kind of file\n';
      if (!flagBool(ctx.args, 'quiet')) ctx.stderr += "If you don't see a command prompt, try pressing enter.\n";
    }
    waitForPod(ctx, name, ctx.io.waitForeverMs ?? ATTACH_WINDOW_MS, completed, (ended) => {
      const logQuery = { container: pod.spec.containers[0]?.name ?? name, ...(since !== undefined ? { sinceTime: rfc3339(since) } : {}) };
      ctx.request({ verb: 'get', resource: gvr(lookupResource('pods')!), namespace, name, subresource: 'log', query: logQuery }, (log) => {
        if (log.ok) ctx.out(String(log.body));
        // still running when this terminal stops waiting: as if Ctrl+C ended kubectl (the pod stays)
        if (!ended) return done();
        const terminated = ended.status?.containerStatuses?.[0]?.state?.terminated;
        if (ended.status?.phase === 'Failed') {
          if (!terminated || terminated.exitCode === 0) ctx.error(`pod ${namespace}/${name} failed with unknown exit code`);
          else {
            // uexec.CodeExitError: its text as is, and the container's code as kubectl's
            const text = `pod ${namespace}/${name} terminated (${terminated.reason ?? ''})\n${terminated.message ?? ''}`;
            ctx.stderr += text.endsWith('\n') ? text : `${text}\n`;
            ctx.failed = true;
            ctx.exitCode = terminated.exitCode;
          }
        }
        finish();
      });
    });
  });
}

/** waitForPod: the pod once `condition` holds for it (checked now, then on each watch event), or undefined at the timeout. */
function waitForPod(ctx: Ctx, name: string, timeoutMs: number, condition: PodCondition, then: (pod: Pod | undefined) => void): void {
  const pods = gvr(lookupResource('pods')!);
  ctx.request({ verb: 'get', resource: pods, namespace: ctx.namespace, name }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return then(undefined);
    }
    const pod = res.body as Pod;
    if (condition(pod) || !ctx.transport.watch || !ctx.io.after) return then(condition(pod) ? pod : undefined);
    watchUntil<Pod>(ctx, {
      req: { verb: 'watch', resource: pods, namespace: ctx.namespace, query: { fieldSelector: `metadata.name=${name}`, resourceVersion: pod.metadata.resourceVersion } },
      windowMs: timeoutMs,
      onEvent: (ev, end) => {
        if ((ev.type === 'ADDED' || ev.type === 'MODIFIED') && condition(ev.object as Pod)) end(ev.object as Pod);
      },
    }, (how) => then('value' in how ? how.value : undefined));
  });
}
