// kubectl create configmap | secret generic|docker-registry|tls | serviceaccount | quota |
// priorityclass NAME, and create token SERVICEACCOUNT: mirrors staging/src/k8s.io/kubectl/pkg/cmd/
// create/{create_configmap.go, create_secret.go, create_secret_docker.go, create_secret_tls.go,
// create_serviceaccount.go, create_quota.go, create_priorityclass.go, create_token.go}. There is no file system in the simulation, so
// --from-file, --from-env-file and the TLS files fail as a missing file does.
import {
  encodeBase64Utf8, isConfigMapKey, resourceForKind,
  type ConfigMap, type KubeObject, type PriorityClass, type ResourceQuota, type Secret, type ServiceAccount,
} from '../../../api/index.ts';
import { flagBool, flagDurationMs, flagInt, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { createObject } from './apply.ts';

type Built = KubeObject | { error: string };

/** The one NAME a create subcommand takes (NameFromCommandArgs); `skip` positionals name the command. */
export function nameArg(ctx: Ctx, skip: number): { name: string } | { error: string } {
  const dash = ctx.args.argsLenAtDash ?? -1;
  const names = ctx.args.positionals.slice(skip, dash === -1 ? undefined : dash);
  if (names.length !== 1) return { error: `exactly one NAME is required, got ${names.length}` };
  return { name: names[0]! };
}

/**
 * How each generator's Run wraps the create's error (fmt.Errorf with %v, so kubectl prints
 * "error: " and the text, not the Status): create_configmap.go, create_secret.go and
 * create_secret_tls.go ("failed to create secret: "), create_secret_docker.go (no colon),
 * create_serviceaccount.go, create_quota.go, create_priorityclass.go, create_rolebinding.go,
 * create_clusterrolebinding.go. create_role.go and create_clusterrole.go return the error as it is.
 */
export function createErrorWrap(obj: KubeObject): string | undefined {
  switch (obj.kind) {
    case 'ConfigMap':
      return 'failed to create configmap: ';
    case 'Secret':
      return (obj as Secret).type === 'kubernetes.io/dockerconfigjson' ? 'failed to create secret ' : 'failed to create secret: ';
    case 'ServiceAccount':
      return 'failed to create serviceaccount: ';
    case 'ResourceQuota':
      return 'failed to create quota: ';
    case 'PriorityClass':
      return 'failed to create priorityclass: ';
    case 'RoleBinding':
      return 'failed to create rolebinding: ';
    case 'ClusterRoleBinding':
      return 'failed to create clusterrolebinding: ';
    default:
      return undefined;
  }
}

/** Runs a generator: the object it builds is created (or printed under --dry-run), an error printed. */
export function createBuilt(ctx: Ctx, built: Built, done: () => void): void {
  if ('error' in built) {
    ctx.error(built.error);
    return done();
  }
  createObject(ctx, built, resourceForKind(built.kind ?? '', built.apiVersion)!, 'created', done, undefined, createErrorWrap(built));
}

/** A file the command would read: the simulation has none to give. */
function missingFile(path: string): { error: string } {
  return { error: `lstat ${path}: no such file or directory` };
}

/** ParseLiteralSource: key=value, split at the first "=". */
function literals(sources: string[], kindName: string, what: 'ConfigMap' | 'Secret'): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const source of sources) {
    const eq = source.indexOf('=');
    if (eq <= 0) return { error: `invalid literal source ${source}, expected key=value` };
    const [key, value] = [source.slice(0, eq), source.slice(eq + 1)];
    const errs = isConfigMapKey(key);
    if (errs.length > 0) {
      return { error: what === 'ConfigMap' ? `${JSON.stringify(key)} is not a valid key name for a ConfigMap: ${errs.join(';')}` : `${JSON.stringify(key)} is not valid key name for a Secret ${errs.join(';')}` };
    }
    if (key in out) {
      return { error: what === 'ConfigMap' ? `cannot add key ${JSON.stringify(key)}, another key by that name already exists in Data for ConfigMap ${JSON.stringify(kindName)}` : `cannot add key ${key}, another key by that name already exists` };
    }
    out[key] = value;
  }
  return out;
}

export function configMapFor(ctx: Ctx, name: string): Built {
  const files = [...flagStrings(ctx.args, 'from-file'), ...flagStrings(ctx.args, 'from-env-file')];
  if (files.length > 0) return missingFile(files[0]!.replace(/^[^=]*=/, ''));
  const data = literals(flagStrings(ctx.args, 'from-literal'), name, 'ConfigMap');
  if ('error' in data) return data as { error: string };
  const cm: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } };
  if (Object.keys(data).length > 0) cm.data = data as Record<string, string>;
  return cm;
}

export function secretFor(ctx: Ctx, kind: string | undefined, name: string): Built {
  const files = [...flagStrings(ctx.args, 'from-file'), ...flagStrings(ctx.args, 'from-env-file')];
  switch (kind) {
    case 'generic': {
      if (files.length > 0) return missingFile(files[0]!.replace(/^[^=]*=/, ''));
      const data = literals(flagStrings(ctx.args, 'from-literal'), name, 'Secret');
      if ('error' in data) return data as { error: string };
      const secret: Secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name } };
      const type = flagString(ctx.args, 'type');
      if (type) secret.type = type;
      const entries = Object.entries(data as Record<string, string>);
      if (entries.length > 0) secret.data = Object.fromEntries(entries.map(([k, v]) => [k, encodeBase64Utf8(v)]));
      return secret;
    }
    case 'docker-registry': {
      if (files.length > 0) return missingFile(files[0]!.replace(/^[^=]*=/, ''));
      const username = flagString(ctx.args, 'docker-username') ?? '';
      const password = flagString(ctx.args, 'docker-password') ?? '';
      const server = flagString(ctx.args, 'docker-server') ?? 'https://index.docker.io/v1/';
      if (username === '' || password === '' || server === '') {
        return { error: 'either --from-file or the combination of --docker-username, --docker-password and --docker-server is required' };
      }
      const email = flagString(ctx.args, 'docker-email') ?? '';
      // DockerConfigJSON: {"auths":{server:{username,password,email?,auth}}}
      const entry = { username, password, ...(email ? { email } : {}), auth: encodeBase64Utf8(`${username}:${password}`) };
      const secret: Secret = {
        apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': encodeBase64Utf8(JSON.stringify({ auths: { [server]: entry } })) },
      };
      return secret;
    }
    case 'tls': {
      const cert = flagString(ctx.args, 'cert') ?? '';
      const key = flagString(ctx.args, 'key') ?? '';
      if (cert === '' || key === '') return { error: 'key and cert must be specified' };
      return { error: `open ${cert}: no such file or directory` };
    }
    default:
      return { error: kind === undefined ? 'You must specify the type of secret to create: docker-registry, generic, tls' : `unknown command "${kind}" for "kubectl create secret"` };
  }
}

export function serviceAccountFor(name: string): Built {
  const sa: ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } };
  return sa;
}

/** create_quota.go: --hard "resource=quantity,..." and --scopes "Scope,...". */
export function quotaFor(ctx: Ctx, name: string): Built {
  const hard: Record<string, string> = {};
  const spec = flagString(ctx.args, 'hard') ?? '';
  for (const pair of spec === '' ? [] : spec.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { error: `invalid argument (${pair}): must be in the form of resourceName=quantity` };
    hard[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const scopes = (flagString(ctx.args, 'scopes') ?? '').split(',').filter((s) => s !== '');
  const quota: ResourceQuota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...(scopes.length > 0 ? { scopes } : {}) } };
  return quota;
}

/** create_priorityclass.go: --value, --global-default, --description, --preemption-policy (default PreemptLowerPriority). */
export function priorityClassFor(ctx: Ctx, name: string): Built {
  const pc: PriorityClass = {
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name },
    value: flagInt(ctx.args, 'value') ?? 0,
    globalDefault: flagBool(ctx.args, 'global-default'),
    description: flagString(ctx.args, 'description') ?? '',
    preemptionPolicy: (flagString(ctx.args, 'preemption-policy') ?? 'PreemptLowerPriority') as PriorityClass['preemptionPolicy'],
  };
  return pc;
}

/**
 * create token SERVICEACCOUNT (create_token.go): a TokenRequest on the account's token subresource,
 * --duration (at least 10 minutes, the server says), --audience, --bound-object-kind/name/uid;
 * prints the token.
 */
export function runCreateToken(ctx: Ctx, done: () => void): void {
  const name = nameArg(ctx, 1);
  if ('error' in name) {
    ctx.error(name.error);
    return done();
  }
  const durationMs = flagDurationMs(ctx.args, 'duration');
  if (durationMs !== undefined && (durationMs < 0 || durationMs % 1000 !== 0)) {
    ctx.error('--duration must be a positive number of seconds');
    return done();
  }
  const audiences = flagStrings(ctx.args, 'audience');
  const kind = flagString(ctx.args, 'bound-object-kind');
  const spec: Record<string, unknown> = {};
  if (audiences.length > 0) spec.audiences = audiences;
  if (durationMs !== undefined && durationMs > 0) spec.expirationSeconds = durationMs / 1000;
  if (kind) spec.boundObjectRef = { kind, apiVersion: 'v1', name: flagString(ctx.args, 'bound-object-name') ?? '', ...(flagString(ctx.args, 'bound-object-uid') ? { uid: flagString(ctx.args, 'bound-object-uid') } : {}) };
  const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec };
  ctx.request({ verb: 'create', resource: { group: '', version: 'v1', resource: 'serviceaccounts' }, namespace: ctx.namespace, name: name.name, subresource: 'token', body }, (res) => {
    // create_token.go: fmt.Errorf("failed to create token: %v", err)
    if (!res.ok) ctx.error(`failed to create token: ${res.status.message ?? ''}`);
    else ctx.out(`${(res.body as { status?: { token?: string } }).status?.token ?? ''}\n`);
    done();
  });
}
