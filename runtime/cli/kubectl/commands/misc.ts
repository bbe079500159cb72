// kubectl auth can-i, create namespace|deployment|pdb, and the dispatch of the other create subcommands.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/{auth/cani.go, create/create_namespace.go,
// create/create_deployment.go}.
import type { Deployment, KubeObject, Namespace, PodDisruptionBudget } from '../../../api/index.ts';
import { lookupResource, parseToLabelSelector } from '../../../api/index.ts';
import { flagBool, flagInt, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { createObject } from './apply.ts';
import { runAuthCanIList } from './auth-can-i-list.ts';
import { runCreateService } from './create-service.ts';
import { configMapFor, createBuilt, nameArg, priorityClassFor, quotaFor, runCreateToken, secretFor, serviceAccountFor } from './create-config.ts';
import { clusterRoleBindingFor, clusterRoleFor, roleBindingFor, roleFor } from './create-rbac.ts';

// ---------------------------------------------------------------- auth can-i

const SSAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' };

// cani.go: the verbs Validate knows, and the resources RBAC serves that discovery does not list
const RESOURCE_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
const NON_RESOURCE_URL_VERBS = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);
const NON_STANDARD_RESOURCE_NAMES = new Set(['users', 'groups']);

/**
 * cani.go resourceFor: "*" is every resource (no lookup, no warning); a type discovery does not
 * know is sent as typed, with a warning unless it is users or groups (impersonation's resources).
 */
export function canIResourceFor(typed: string): { info?: ReturnType<typeof lookupResource>; resource: string; warning?: string } {
  if (typed === '*') return { resource: typed };
  const info = lookupResource(typed.toLowerCase());
  if (info) return { info, resource: info.resource };
  // schema.ParseResourceArg: "resource.group" (the version form aside)
  const lower = typed.toLowerCase();
  const dot = lower.indexOf('.');
  const [resource, group] = dot === -1 ? [lower, ''] : [lower.slice(0, dot), lower.slice(dot + 1)];
  if (NON_STANDARD_RESOURCE_NAMES.has(dot === -1 ? resource : `${resource}.${group}`)) return { resource: typed };
  const warning = group === '' ? `the server doesn't have a resource type '${resource}'` : `the server doesn't have a resource type '${resource}' in group '${group}'`;
  return { resource: typed, warning };
}

export function runAuthCanI(ctx: Ctx, done: () => void): void {
  if (flagBool(ctx.args, 'list')) return runAuthCanIList(ctx, done);
  const [verb, target, nameArg] = ctx.args.positionals;
  if (verb === undefined || target === undefined) {
    ctx.error(
      "you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples",
    );
    return done();
  }
  // WarningPrinter.Print: "Warning: " + a message that ends in "\n", then "\n"
  const warn = (message: string): void => {
    ctx.stderr += `Warning: ${message}\n\n`;
  };
  const spec: Record<string, unknown> = {};
  if (target.startsWith('/')) {
    spec.nonResourceAttributes = { path: target, verb };
    if (!NON_RESOURCE_URL_VERBS.has(verb)) warn(`verb '${verb}' is not a known verb`);
  } else {
    // Complete: strings.SplitN(args[1], "/", 2), then resourceFor
    const slash = target.indexOf('/');
    const typed = slash === -1 ? target : target.slice(0, slash);
    const slashName = slash === -1 ? undefined : target.slice(slash + 1);
    const resolved = canIResourceFor(typed);
    if (resolved.warning) warn(resolved.warning);
    const info = resolved.info;
    // Validate: a cluster-scoped resource (found in discovery; "*" counts as namespaced) checked
    // without -A is warned about, and so is a verb RBAC does not know
    if (!ctx.allNamespaces) {
      if (info && !info.namespaced) warn(info.group === '' ? `resource '${info.resource}' is not namespace scoped` : `resource '${info.resource}' is not namespace scoped in group '${info.group}'`);
      if (!RESOURCE_VERBS.has(verb)) warn(`verb '${verb}' is not a known verb`);
    }
    spec.resourceAttributes = {
      // RunAccessCheck sends the namespace as it is, a cluster-scoped resource too
      namespace: ctx.allNamespaces ? '' : ctx.namespace,
      verb,
      group: info?.group ?? '',
      resource: info?.resource ?? resolved.resource,
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

/** The create subcommands that build one kind of object from flags, by their names and aliases. */
const GENERATORS: Record<string, { skip: number; build: (ctx: Ctx, name: string) => KubeObject | { error: string } }> = {
  configmap: { skip: 1, build: configMapFor },
  cm: { skip: 1, build: configMapFor },
  serviceaccount: { skip: 1, build: (_ctx, name) => serviceAccountFor(name) },
  sa: { skip: 1, build: (_ctx, name) => serviceAccountFor(name) },
  quota: { skip: 1, build: quotaFor },
  resourcequota: { skip: 1, build: quotaFor },
  priorityclass: { skip: 1, build: priorityClassFor },
  pc: { skip: 1, build: priorityClassFor },
  role: { skip: 1, build: roleFor },
  clusterrole: { skip: 1, build: clusterRoleFor },
  rolebinding: { skip: 1, build: roleBindingFor },
  clusterrolebinding: { skip: 1, build: clusterRoleBindingFor },
  secret: { skip: 2, build: (ctx, name) => secretFor(ctx, ctx.args.positionals[1], name) },
};

export function runCreateGenerator(ctx: Ctx, done: () => void): void {
  if (ctx.args.positionals[0] === 'service' || ctx.args.positionals[0] === 'svc') return runCreateService(ctx, done);
  if (ctx.args.positionals[0] === 'token') return runCreateToken(ctx, done);
  const generator = Object.hasOwn(GENERATORS, ctx.args.positionals[0] ?? '') ? GENERATORS[ctx.args.positionals[0] ?? ''] : undefined;
  if (generator) {
    // `create secret` needs its type before the name
    if (ctx.args.positionals[0] === 'secret' && !['generic', 'docker-registry', 'tls'].includes(ctx.args.positionals[1] ?? '')) {
      return createBuilt(ctx, secretFor(ctx, ctx.args.positionals[1], ''), done);
    }
    const name = nameArg(ctx, generator.skip);
    return createBuilt(ctx, 'error' in name ? name : generator.build(ctx, name.name), done);
  }
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
    // create_deployment.go: what follows "--" is every container's command (with one image)
    const dash = ctx.args.argsLenAtDash ?? -1;
    const command = dash === 2 ? ctx.args.positionals.slice(2) : [];
    if ((dash === -1 ? ctx.args.positionals.length - 1 : dash - 1) !== 1) {
      ctx.error(`exactly one NAME is required, got ${dash === -1 ? ctx.args.positionals.length - 1 : dash - 1}\nSee 'kubectl create deployment -h' for help and examples`);
      return done();
    }
    if (images.length > 1 && command.length > 0) {
      ctx.error('cannot specify multiple --image options and command');
      return done();
    }
    obj = deploymentFor(
      name,
      images,
      flagInt(ctx.args, 'replicas') ?? 1,
      flagInt(ctx.args, 'port'),
      command,
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
  // create_deployment.go and create_pdb.go wrap the create's error; create_namespace.go does not
  const wrap = info.kind === 'Deployment' ? 'failed to create deployment: ' : info.kind === 'PodDisruptionBudget' ? 'failed to create poddisruptionbudgets: ' : undefined;
  createObject(ctx, obj, info, 'created', done, undefined, wrap);
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
  command: string[] = [],
): Deployment {
  const labels = { app: name };
  const containers = images.map((image) => {
    let base = image.split('/').pop() ?? image;
    base = base.split('@')[0]!.split(':')[0]!;
    return {
      name: base,
      image,
      ...(command.length > 0 ? { command } : {}),
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
