// kubectl logs, auth can-i, create namespace|deployment.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/{logs/logs.go, auth/cani.go,
// create/create_namespace.go, create/create_deployment.go}.
import type {
  Deployment,
  KubeObject,
  LabelSelector,
  Namespace,
  Pod,
  PodDisruptionBudget,
  ResourceInfo,
} from '../../../api/index.ts';
import { formatLabelSelector, lookupResource, parseGoDuration, parseRFC3339, parseToLabelSelector } from '../../../api/index.ts';
import { flagBool, flagInt, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import type { ObjectList } from '../transport.ts';
import { createObject } from './apply.ts';
import { runAuthCanIList } from './auth-can-i-list.ts';
import { runCreateService } from './create-service.ts';

// ---------------------------------------------------------------- logs

export function runLogs(ctx: Ctx, done: () => void): void {
  const [first, second] = ctx.args.positionals;
  if (first === undefined) {
    ctx.error(
      "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples",
    );
    return done();
  }
  const slash = first.indexOf('/');
  const owner = slash < 0 ? undefined : lookupResource(first.slice(0, slash));
  if (owner && owner.kind !== 'Pod') {
    firstPodOf(ctx, owner, first.slice(slash + 1), (podName) =>
      podName === undefined ? done() : logsOfPod(ctx, podName, second, done),
    );
    return;
  }
  logsOfPod(ctx, slash < 0 ? first : first.slice(slash + 1), second, done);
}

/**
 * logs.go Validate and ToLogOptions: --tail -1 (the default) sends no tailLines, --since rounds
 * to whole seconds, --since-time is RFC 3339, --limit-bytes 0 sends nothing.
 */
function logOptions(ctx: Ctx): { tailLines?: number; previous?: boolean; timestamps?: boolean; sinceSeconds?: number; sinceTime?: string; limitBytes?: number } | { error: string } {
  const since = flagString(ctx.args, 'since');
  const sinceTime = flagString(ctx.args, 'since-time');
  const tail = flagInt(ctx.args, 'tail') ?? -1;
  const limitBytes = flagInt(ctx.args, 'limit-bytes') ?? 0;
  let sinceSeconds: number | undefined;
  if (since !== undefined) {
    const ms = parseGoDuration(since);
    if (ms === undefined) return { error: `invalid argument "${since}" for "--since" flag: time: invalid duration "${since}"` };
    if (ms !== 0) sinceSeconds = Math.round(ms / 1000);
  }
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

/** polymorphichelpers.attachablePodForObject: the workload's first pod by name, noting how many matched. */
function firstPodOf(
  ctx: Ctx,
  owner: ResourceInfo,
  name: string,
  then: (podName: string | undefined) => void,
): void {
  ctx.request({ verb: 'get', resource: gvr(owner), namespace: ctx.namespace, name }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return then(undefined);
    }
    const selector = formatLabelSelector(
      (res.body as { spec?: { selector?: LabelSelector } }).spec?.selector,
    );
    ctx.request(
      {
        verb: 'list',
        resource: gvr(lookupResource('pods')!),
        namespace: ctx.namespace,
        query: { labelSelector: selector },
      },
      (list) => {
        const items = list.ok ? ((list.body as ObjectList).items as Pod[]) : [];
        const names = items.map((p) => p.metadata.name ?? '').sort();
        if (names.length === 0) {
          ctx.error('timed out waiting for the condition');
          return then(undefined);
        }
        if (names.length > 1) ctx.stderr += `Found ${names.length} pods, using pod/${names[0]}\n`;
        then(names[0]);
      },
    );
  });
}

function logsOfPod(ctx: Ctx, podName: string, second: string | undefined, done: () => void): void {
  const pods = lookupResource('pods')!;
  ctx.request(
    { verb: 'get', resource: gvr(pods), namespace: ctx.namespace, name: podName },
    (res) => {
      if (!res.ok) {
        ctx.statusError(res.status);
        return done();
      }
      const pod = res.body as Pod;
      const names = pod.spec.containers.map((c) => c.name);
      let container = flagString(ctx.args, 'container') ?? second;
      if (container === undefined) {
        const preferred = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
        container = preferred && names.includes(preferred) ? preferred : names[0];
        if (names.length > 1)
          ctx.stderr += `Defaulted container "${container}" out of: ${names.join(', ')}\n`;
      }
      const options = logOptions(ctx);
      if ('error' in options) {
        ctx.error(options.error);
        return done();
      }
      const query = { container, ...options };
      ctx.request(
        {
          verb: 'get',
          resource: gvr(pods),
          namespace: ctx.namespace,
          name: podName,
          subresource: 'log',
          query,
        },
        (log) => {
          if (log.ok) ctx.out(String(log.body));
          else ctx.statusError(log.status);
          done();
        },
      );
    },
  );
}

// ---------------------------------------------------------------- auth can-i

const SSAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' };

export function runAuthCanI(ctx: Ctx, done: () => void): void {
  if (flagBool(ctx.args, 'list')) return runAuthCanIList(ctx, done);
  const [verb, target, nameArg] = ctx.args.positionals;
  if (verb === undefined || target === undefined) {
    ctx.error(
      "you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples",
    );
    return done();
  }
  const spec: Record<string, unknown> = {};
  if (target.startsWith('/')) {
    spec.nonResourceAttributes = { path: target, verb };
  } else {
    const [typedWithSub, slashName] = target.split('/') as [string, string | undefined];
    const info = lookupResource(typedWithSub);
    if (!info)
      ctx.stderr += `Warning: the server doesn't have a resource type '${typedWithSub}'\n\n`;
    spec.resourceAttributes = {
      namespace: ctx.allNamespaces || (info && !info.namespaced) ? '' : ctx.namespace,
      verb,
      group: info?.group ?? '',
      resource: info?.resource ?? typedWithSub,
      subresource: flagString(ctx.args, 'subresource') ?? '',
      name: nameArg ?? slashName ?? '',
    };
  }
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec };
  ctx.request({ verb: 'create', resource: SSAR, body }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    const status = (res.body as { status?: { allowed?: boolean; reason?: string } }).status ?? {};
    const quiet = flagBool(ctx.args, 'quiet');
    if (status.allowed) {
      if (!quiet) ctx.out('yes\n');
    } else {
      if (!quiet) ctx.out(status.reason ? `no - ${status.reason}\n` : 'no\n');
      ctx.failed = true;
    }
    done();
  });
}

// ---------------------------------------------------------------- create <kind> <name>

export function runCreateGenerator(ctx: Ctx, done: () => void): void {
  if (ctx.args.positionals[0] === 'service' || ctx.args.positionals[0] === 'svc') return runCreateService(ctx, done);
  const [what, name] = ctx.args.positionals;
  const info = lookupResource(what ?? '');
  if (!info || name === undefined) {
    ctx.error(
      name === undefined && info
        ? 'exactly one NAME is required, got 0'
        : `unknown command "${what ?? ''}" for "kubectl create"`,
    );
    return done();
  }
  let obj: KubeObject | undefined;
  if (info.kind === 'Namespace')
    obj = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
      spec: {},
      status: {},
    } as Namespace;
  if (info.kind === 'Deployment') {
    const images = flagStrings(ctx.args, 'image');
    if (images.length === 0) {
      ctx.error('required flag(s) "image" not set');
      return done();
    }
    obj = deploymentFor(
      name,
      images,
      flagInt(ctx.args, 'replicas') ?? 1,
      flagInt(ctx.args, 'port'),
    );
  }
  if (info.kind === 'PodDisruptionBudget') {
    const built = pdbFor(name, ctx.namespace, flagString(ctx.args, 'selector') ?? '', flagString(ctx.args, 'min-available') ?? '', flagString(ctx.args, 'max-unavailable') ?? '');
    if ('error' in built) {
      ctx.error(built.error);
      return done();
    }
    obj = built;
  }
  if (!obj) {
    ctx.error(`unknown command "${what ?? ''}" for "kubectl create"`);
    return done();
  }
  createObject(ctx, obj, info, 'created', done);
}

/** create_pdb.go: Validate's refusals, then the budget with the selector and the one bound given. */
export function pdbFor(name: string, namespace: string, selector: string, minAvailable: string, maxUnavailable: string): PodDisruptionBudget | { error: string } {
  if (selector === '') return { error: 'a selector must be specified' };
  if (minAvailable === '' && maxUnavailable === '') return { error: 'one of min-available or max-unavailable must be specified' };
  if (minAvailable !== '' && maxUnavailable !== '') return { error: 'min-available and max-unavailable cannot be both specified' };
  // a count or a percentage ("10", "30%"), not "10Gb"
  const countOrPercent = /^[0-9]+%?$/;
  if (minAvailable !== '' && !countOrPercent.test(minAvailable)) return { error: 'invalid format specified for min-available' };
  if (maxUnavailable !== '' && !countOrPercent.test(maxUnavailable)) return { error: 'invalid format specified for max-unavailable' };
  const parsed = parseToLabelSelector(selector);
  if (!parsed.ok) return { error: parsed.error };
  // intstr.Parse: digits are an int, anything else a string
  const intOrString = (v: string): number | string => (/^[0-9]+$/.test(v) ? Number(v) : v);
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec: {
      ...(minAvailable !== '' ? { minAvailable: intOrString(minAvailable) } : { maxUnavailable: intOrString(maxUnavailable) }),
      selector: parsed.selector,
    },
  };
}

/** create_deployment.go: app=<name> labels, one container per image named after the image. */
export function deploymentFor(
  name: string,
  images: string[],
  replicas: number,
  port?: number,
): Deployment {
  const labels = { app: name };
  const containers = images.map((image) => {
    let base = image.split('/').pop() ?? image;
    base = base.split('@')[0]!.split(':')[0]!;
    return {
      name: base,
      image,
      resources: {},
      ...(port !== undefined ? { ports: [{ containerPort: port }] } : {}),
    };
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      strategy: {},
      template: { metadata: { labels }, spec: { containers } },
    },
    status: {},
  } as Deployment;
}
