// kubectl logs, auth can-i, drain, create namespace|deployment.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/{logs/logs.go, auth/cani.go, drain/drain.go,
// create/create_namespace.go, create/create_deployment.go}.
import type {
  Deployment,
  KubeObject,
  LabelSelector,
  Namespace,
  Pod,
  ResourceInfo,
} from '../../../api/index.ts';
import { formatLabelSelector, lookupResource } from '../../../api/index.ts';
import { flagBool, flagInt, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import { operationLine } from '../errors.ts';
import type { ObjectList } from '../transport.ts';
import { createObject } from './apply.ts';
import { runCordon } from './mutate.ts';

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
      const query = {
        container,
        tailLines: flagInt(ctx.args, 'tail'),
        previous: flagBool(ctx.args, 'previous') || undefined,
        timestamps: flagBool(ctx.args, 'timestamps') || undefined,
      };
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

// ---------------------------------------------------------------- drain

/** Cordon, then evict every pod on the node, refusing DaemonSet pods and bare pods unless told. */
export function runDrain(ctx: Ctx, done: () => void): void {
  const nodeName = ctx.args.positionals[0];
  if (nodeName === undefined) {
    ctx.error('USAGE: drain NODE [flags]');
    return done();
  }
  const positionals = [...ctx.args.positionals];
  runCordon(ctx, true, () => {
    ctx.args.positionals = positionals;
    if (ctx.failed) return done();
    const pods = lookupResource('pods')!;
    ctx.request(
      { verb: 'list', resource: gvr(pods), query: { fieldSelector: `spec.nodeName=${nodeName}` } },
      (res) => {
        if (!res.ok) {
          ctx.statusError(res.status);
          return done();
        }
        const list = (res.body as ObjectList).items as Pod[];
        const plan = planDrain(
          list,
          flagBool(ctx.args, 'ignore-daemonsets'),
          flagBool(ctx.args, 'force'),
        );
        if (plan.errors.length > 0) {
          const text = plan.errors.join(', ');
          ctx.error(
            `unable to drain node "${nodeName}" due to error: ${text}, continuing command...\nThere are pending nodes to be drained:\n ${nodeName}\n${text}`,
          );
          return done();
        }
        for (const w of plan.warnings) ctx.stderr += `Warning: ${w}\n`;
        forEachSeq(
          plan.evict,
          (pod, next) => evict(ctx, pod, next),
          () => {
            if (!ctx.failed) ctx.out(operationLine('node', nodeName, 'drained'));
            done();
          },
        );
      },
    );
  });
}

const key = (p: Pod): string => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;

/** drain.go's pod filters: mirror pods skipped, DaemonSet pods need --ignore-daemonsets, bare pods need --force. */
export function planDrain(
  pods: Pod[],
  ignoreDaemonSets: boolean,
  force: boolean,
): { evict: Pod[]; warnings: string[]; errors: string[] } {
  const daemon: Pod[] = [];
  const bare: Pod[] = [];
  const evict: Pod[] = [];
  for (const p of pods) {
    if (p.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) continue;
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') {
      evict.push(p);
      continue;
    }
    const controller = (p.metadata.ownerReferences ?? []).find((o) => o.controller);
    if (controller?.kind === 'DaemonSet') daemon.push(p);
    else if (!controller) bare.push(p);
    else evict.push(p);
  }
  const errors: string[] = [];
  const warnings: string[] = [];
  if (daemon.length > 0) {
    if (ignoreDaemonSets)
      warnings.push(`ignoring DaemonSet-managed Pods: ${daemon.map(key).join(', ')}`);
    else
      errors.push(
        `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${daemon.map(key).join(', ')}`,
      );
  }
  if (bare.length > 0) {
    if (force)
      warnings.push(`deleting Pods that declare no controller: ${bare.map(key).join(', ')}`);
    else
      errors.push(
        `cannot delete Pods that declare no controller (use --force to override): ${bare.map(key).join(', ')}`,
      );
  }
  return { evict: [...evict, ...(force ? bare : [])], warnings, errors };
}

function evict(ctx: Ctx, pod: Pod, done: () => void): void {
  const pods = lookupResource('pods')!;
  ctx.out(`evicting pod ${key(pod)}\n`);
  const body = {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace },
  };
  ctx.request(
    {
      verb: 'create',
      resource: gvr(pods),
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      subresource: 'eviction',
      body,
    },
    (res) => {
      if (res.ok) ctx.out(operationLine('pod', pod.metadata.name ?? '', 'evicted'));
      else
        ctx.stderr += `error when evicting pods/"${pod.metadata.name ?? ''}" -n "${pod.metadata.namespace ?? ''}" (will retry after 5s): ${res.status.message ?? ''}\n`;
      done();
    },
  );
}

// ---------------------------------------------------------------- create <kind> <name>

export function runCreateGenerator(ctx: Ctx, done: () => void): void {
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
  if (!obj) {
    ctx.error(`unknown command "${what ?? ''}" for "kubectl create"`);
    return done();
  }
  createObject(ctx, obj, info, 'created', done);
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
