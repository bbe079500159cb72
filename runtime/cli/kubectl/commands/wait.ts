// kubectl wait: for each object named (TYPE NAME, TYPE/NAME, -l, --all, -f), until a condition
// holds (--for=condition=Ready[=value], compared case-insensitively and only once the condition's
// observedGeneration caught up), a JSONPath has a value (--for=jsonpath='{.status.phase}'=Running),
// the object is gone (--for=delete), or it exists (--for=create); "<type>/<name> condition met" for each, one --timeout
// (30 s) for them all. mirrors staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go.
import { lookupResource, type KubeObject, type ResourceInfo } from '../../../api/index.ts';
import { flagDurationMs, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import { findResults, parseSteps, relaxedJSONPathExpression } from '../printers/jsonpath.ts';
import { typePrefix } from '../resources.ts';
import { fetchTargets, type TargetGroup } from './targets.ts';
import { watchUntil } from './watch-until.ts';

const MISSING_TYPE =
  'You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   \'-f rsrc.yaml\'\n   \'--filename=rsrc.json\'\n   \'<resource> <name>\'\n   \'<resource>\'';
/** --timeout's default. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** A negative --timeout waits for a week. */
const WEEK_MS = 168 * 3_600_000;

type Check = (obj: KubeObject) => boolean | { error: string };
type Condition = { kind: 'delete' } | { kind: 'check'; check: Check };

export function runWait(ctx: Ctx, done: () => void): void {
  const given = flagDurationMs(ctx.args, 'timeout') ?? DEFAULT_TIMEOUT_MS;
  const timeoutMs = given < 0 ? WEEK_MS : given;
  if ((flagString(ctx.args, 'for') ?? '').toLowerCase() === 'create') return waitForCreate(ctx, timeoutMs, done);
  const condition = conditionFor(flagString(ctx.args, 'for') ?? '');
  if ('error' in condition) {
    ctx.error(condition.error);
    return done();
  }
  // --for=delete: an object already gone is what was asked for (IgnoreErrors(IsNotFound))
  fetchTargets(ctx, { missingTypeError: MISSING_TYPE, ignoreNotFound: condition.kind === 'delete' }, (groups) => {
    if (!groups || ctx.failed) return done();
    const items = groups.flatMap((g) => g.objects.map((obj) => ({ group: g, obj })));
    if (items.length === 0 && condition.kind !== 'delete') {
      ctx.error('no matching resources found');
      return done();
    }
    // one context, one deadline, for every object
    const deadline = ctx.nowMs + timeoutMs;
    forEachSeq(
      items,
      ({ group, obj }, next) =>
        waitFor(ctx, group, obj, condition, timeoutMs === 0 ? undefined : deadline, (error) => {
          if (error === undefined) return next();
          ctx.error(error);
          done();
        }),
      done,
    );
  });
}

/** conditionFuncFor. */
function conditionFor(text: string): Condition | { error: string } {
  if (text.toLowerCase() === 'delete') return { kind: 'delete' };
  if (text.startsWith('condition=')) {
    let name = text.slice('condition='.length);
    let value = 'true';
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    return { kind: 'check', check: (obj) => conditionHolds(obj, name, value) };
  }
  if (text.startsWith('jsonpath=')) {
    const parts = text.split('=');
    if (parts.length !== 3) return { error: "jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3" };
    const want = parts[2]!.replace(/^['"]+|['"]+$/g, '');
    if (want === '') return { error: 'jsonpath wait condition cannot be empty' };
    const steps = parseSteps(relaxedJSONPathExpression(parts[1]!).slice(1, -1));
    return { kind: 'check', check: (obj) => jsonPathHolds(obj, steps, want) };
  }
  return { error: `unrecognized condition: "${text}"` };
}

/** ConditionalWait.checkCondition. */
function conditionHolds(obj: KubeObject, name: string, value: string): boolean {
  const status = (obj as { status?: { conditions?: { type?: string; status?: string; observedGeneration?: number }[]; observedGeneration?: number } }).status;
  for (const c of status?.conditions ?? []) {
    if ((c.type ?? '').toLowerCase() !== name.toLowerCase() || c.status === undefined) continue;
    const generation = obj.metadata.generation;
    const observed = c.observedGeneration ?? status?.observedGeneration;
    if (generation !== undefined && observed !== undefined && observed < generation) return false;
    return c.status.toLowerCase() === value.toLowerCase();
  }
  return false;
}

/** JSONPathWait.checkCondition: one primitive value, compared as text. */
function jsonPathHolds(obj: KubeObject, steps: ReturnType<typeof parseSteps>, want: string): boolean | { error: string } {
  const results = findResults(steps, obj, true);
  if (results.length === 0) return false;
  if (results.length > 1) return { error: 'given jsonpath expression matches more than one value' };
  const v = results[0];
  if (typeof v === 'object' && v !== null) return { error: 'jsonpath leads to a nested object or list which is not supported' };
  return String(v ?? '<nil>').trim() === want.trim();
}

/** One object: met now, or watched by name until met, gone, or the deadline (undefined: check once). */
function waitFor(ctx: Ctx, group: TargetGroup, obj: KubeObject, condition: Condition, deadline: number | undefined, done: (error?: string) => void): void {
  const name = obj.metadata.name ?? '';
  const met = (): void => {
    ctx.out(`${typePrefix(group.info)}/${name} condition met\n`);
    done();
  };
  const timedOut = `timed out waiting for the condition on ${group.info.resource}/${name}`;
  if (condition.kind === 'check') {
    const now = condition.check(obj);
    if (typeof now === 'object') return done(now.error);
    if (now) return met();
  }
  // --timeout=0: checked once
  if (deadline === undefined) return done(`condition not met for ${group.info.resource}/${name}`);
  if (!ctx.transport.watch || !ctx.io.after || ctx.nowMs >= deadline) return done(timedOut);
  // the watch's value: undefined when the condition is met, else the error that ends the wait
  watchUntil<string | undefined>(ctx, {
    req: {
      verb: 'watch',
      resource: gvr(group.info),
      namespace: obj.metadata.namespace,
      query: { fieldSelector: `metadata.name=${name}`, resourceVersion: obj.metadata.resourceVersion },
    },
    windowMs: deadline - ctx.nowMs,
    onEvent: (ev, end) => {
      if (condition.kind === 'delete') {
        if (ev.type === 'DELETED') end(undefined);
        return;
      }
      if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') return;
      const now = condition.check(ev.object);
      if (typeof now === 'object') end(now.error);
      else if (now) end(undefined);
    },
  }, (how) => {
    if (!('value' in how)) return done(timedOut);
    if (how.value === undefined) met();
    else done(how.value);
  });
}

/**
 * --for=create (CreateWait, kubectl 1.31): each object named TYPE NAME or TYPE/NAME, until it
 * exists: a list by name gives the revision to watch from, an ADDED event ends the wait.
 */
function waitForCreate(ctx: Ctx, timeoutMs: number, done: () => void): void {
  const names = parseNames(ctx.args.positionals);
  if ('error' in names) {
    ctx.error(names.error);
    return done();
  }
  const deadline = ctx.nowMs + timeoutMs;
  forEachSeq(names.targets, ({ info, name }, next) => {
    const resource = gvr(info);
    const namespace = info.namespaced ? ctx.namespace : undefined;
    const fieldSelector = `metadata.name=${name}`;
    const met = (): void => {
      ctx.out(`${typePrefix(info)}/${name} condition met\n`);
      next();
    };
    const timedOut = (): void => {
      ctx.error(`timed out waiting for the condition on ${info.resource}/${name}`);
      done();
    };
    ctx.request({ verb: 'list', resource, namespace, query: { fieldSelector } }, (res) => {
      if (!res.ok) {
        ctx.statusError(res.status);
        return done();
      }
      const list = res.body as { items: KubeObject[]; metadata: { resourceVersion?: string } };
      if (list.items.length > 0) return met();
      if (!ctx.transport.watch || !ctx.io.after || ctx.nowMs >= deadline) return timedOut();
      watchUntil<true>(ctx, {
        req: { verb: 'watch', resource, namespace, query: { fieldSelector, ...(list.metadata.resourceVersion ? { resourceVersion: list.metadata.resourceVersion } : {}) } },
        windowMs: deadline - ctx.nowMs,
        onEvent: (ev, end) => {
          if (ev.type === 'ADDED') end(true);
        },
      }, (how) => ('value' in how ? met() : timedOut()));
    });
  }, done);
}

/** TYPE NAME... or TYPE/NAME...: the objects --for=create waits for. */
function parseNames(positionals: readonly string[]): { targets: { info: ResourceInfo; name: string }[] } | { error: string } {
  if (positionals.length === 0) return { error: MISSING_TYPE };
  const targets: { info: ResourceInfo; name: string }[] = [];
  if (positionals.every((p) => p.includes('/'))) {
    for (const p of positionals) {
      const [type, name] = p.split('/', 2) as [string, string];
      const info = lookupResource(type);
      if (!info) return { error: `the server doesn't have a resource type "${type}"` };
      targets.push({ info, name });
    }
    return { targets };
  }
  const [type, ...rest] = positionals as [string, ...string[]];
  const info = lookupResource(type);
  if (!info) return { error: `the server doesn't have a resource type "${type}"` };
  if (rest.length === 0) return { error: 'condition=create requires the object name' };
  return { targets: rest.map((name) => ({ info, name })) };
}

