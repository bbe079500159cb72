// kubectl logs: one pod (POD, pod/NAME), a workload's first pod (deploy/NAME: "Found N pods,
// using pod/..."), or every pod a selector matches (-l, whose --tail defaults to 10), each of its
// default container or, with --all-containers, of every container; --prefix puts
// "[pod/<pod>/<container>] " before each line. The log itself comes from pods/log (the API server
// asks the pod's kubelet); with -f from a stream that carries each line as the container writes it,
// until the container stops or this terminal's watch window ends. mirrors staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go and
// polymorphichelpers logsforobject.go.
import type { Pod, PodLogOptions } from '../../../api/index.ts';
import { isLogChunk, lookupResource, parseRFC3339 } from '../../../api/index.ts';
import { flagBool, flagDurationMs, flagInt, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import type { ObjectList } from '../transport.ts';
import { canWatch } from './watch.ts';
import { watchUntil } from './watch-until.ts';
import { defaultContainer, firstPodOf } from './attachable-pod.ts';

const USAGE = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples";
/** logs.go selectorTail: a selector's default --tail. */
const SELECTOR_TAIL = 10;

/** PodLogOptions as the query carries it (the container is chosen per pod; follow is not). */
type LogQuery = Omit<PodLogOptions, 'container' | 'follow'>;

export function runLogs(ctx: Ctx, done: () => void): void {
  const [first, second] = ctx.args.positionals;
  const selector = flagString(ctx.args, 'selector');
  if (first === undefined && !selector) return fail(ctx, USAGE, done);
  if (first !== undefined && selector && second === undefined) {
    return fail(ctx, "only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples", done);
  }
  const options = logOptions(ctx, selector !== undefined && selector !== '');
  if ('error' in options) return fail(ctx, options.error, done);
  if (first === undefined) return selectedPods(ctx, selector!, options, done);
  const slash = first.indexOf('/');
  const owner = slash < 0 ? undefined : lookupResource(first.slice(0, slash));
  if (owner && owner.kind !== 'Pod') {
    firstPodOf(ctx, owner, first.slice(slash + 1), (podName) =>
      podName === undefined ? done() : logsOfPod(ctx, podName, second, options, done),
    );
    return;
  }
  logsOfPod(ctx, slash < 0 ? first : first.slice(slash + 1), second, options, done);
}

function fail(ctx: Ctx, message: string, done: () => void): void {
  ctx.error(message);
  done();
}

/**
 * logs.go Validate and ToLogOptions: --tail -1 (the default; 10 with a selector) sends no
 * tailLines, --since rounds to whole seconds, --since-time is RFC 3339, --limit-bytes 0 sends nothing.
 */
function logOptions(ctx: Ctx, withSelector: boolean): LogQuery | { error: string } {
  const sinceMs = flagDurationMs(ctx.args, 'since');
  const sinceTime = flagString(ctx.args, 'since-time');
  let tail = flagInt(ctx.args, 'tail') ?? -1;
  if (withSelector && tail === -1) tail = SELECTOR_TAIL;
  const limitBytes = flagInt(ctx.args, 'limit-bytes') ?? 0;
  let sinceSeconds: number | undefined;
  if (sinceMs !== undefined && sinceMs !== 0) sinceSeconds = Math.round(sinceMs / 1000);
  if (sinceTime !== undefined && sinceSeconds !== undefined) return { error: 'at most one of `sinceTime` or `sinceSeconds` may be specified' };
  if (sinceSeconds !== undefined && sinceSeconds < 0) return { error: '--since must be greater than 0' };
  if (tail < -1) return { error: '--tail must be greater than or equal to -1' };
  if (sinceTime !== undefined && parseRFC3339(sinceTime) === undefined) return { error: `parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as "2006"` };
  return {
    ...(tail !== -1 ? { tailLines: tail } : {}),
    ...(flagBool(ctx.args, 'previous') ? { previous: true } : {}),
    ...(flagBool(ctx.args, 'timestamps') ? { timestamps: true } : {}),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime !== undefined ? { sinceTime } : {}),
    ...(limitBytes !== 0 ? { limitBytes } : {}),
  };
}

/** -l: every matching pod of the namespace, one after another in list order. */
function selectedPods(ctx: Ctx, selector: string, options: LogQuery, done: () => void): void {
  ctx.request({ verb: 'list', resource: gvr(lookupResource('pods')!), namespace: ctx.namespace, query: { labelSelector: selector } }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    const pods = (res.body as ObjectList).items as Pod[];
    if (pods.length === 0) ctx.stderr += `No resources found in ${ctx.namespace} namespace.\n`;
    forEachSeq(pods, (pod, next) => logsOfContainers(ctx, pod, undefined, options, next), done);
  });
}

function logsOfPod(ctx: Ctx, podName: string, container: string | undefined, options: LogQuery, done: () => void): void {
  ctx.request({ verb: 'get', resource: gvr(lookupResource('pods')!), namespace: ctx.namespace, name: podName }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    logsOfContainers(ctx, res.body as Pod, container, options, done);
  });
}

/** The containers to read (the one asked for, every one, or the default) and each one's log. */
function logsOfContainers(ctx: Ctx, pod: Pod, asked: string | undefined, options: LogQuery, done: () => void): void {
  const containers = flagBool(ctx.args, 'all-containers')
    ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => c.name)
    : [flagString(ctx.args, 'container') ?? asked ?? defaultContainer(ctx, pod)];
  forEachSeq(containers, (container, next) => logOfContainer(ctx, pod.metadata.name ?? '', container, options, next), done);
}

function logOfContainer(ctx: Ctx, podName: string, container: string, options: LogQuery, done: () => void): void {
  if (flagBool(ctx.args, 'follow') && canWatch(ctx)) return followContainer(ctx, podName, container, options, done);
  const query = { container, ...options };
  ctx.request({ verb: 'get', resource: gvr(lookupResource('pods')!), namespace: ctx.namespace, name: podName, subresource: 'log', query }, (log) => {
    if (!log.ok) {
      ctx.statusError(log.status);
      return done();
    }
    ctx.out(prefixed(ctx, podName, container, String(log.body)));
    done();
  });
}

/**
 * -f: what is there, then each line as the container writes it, until it stops (the stream
 * closes) or this terminal's watch window ends (where a real one waits for Ctrl+C).
 */
function followContainer(ctx: Ctx, podName: string, container: string, options: LogQuery, done: () => void): void {
  watchUntil<never>(ctx, {
    req: { verb: 'get', resource: gvr(lookupResource('pods')!), namespace: ctx.namespace, name: podName, subresource: 'log', query: { container, follow: true, ...options } },
    windowMs: ctx.io.watchForMs!,
    onEvent: (event) => {
      if (isLogChunk(event.object)) ctx.out(prefixed(ctx, podName, container, event.object.text));
    },
    closeEnds: true,
  }, (how) => {
    if ('closed' in how && how.closed) ctx.statusError(how.closed);
    done();
  });
}

/** --prefix (logs.go prefixingWriter): "[pod/<pod>/<container>] " before each line. */
function prefixed(ctx: Ctx, podName: string, container: string, text: string): string {
  if (!flagBool(ctx.args, 'prefix')) return text;
  return text.split(/(?<=\n)/).filter((l) => l !== '').map((l) => `[pod/${podName}/${container}] ${l}`).join('');
}
