// kubectl config view | get-contexts | get-clusters | get-users | current-context | use-context |
// set-context | set-credentials | delete-context: the terminal's kubeconfig, as kubeadm writes admin.conf (cluster "kubernetes", user
// "kubernetes-admin", context "kubernetes-admin@kubernetes"). mirrors
// staging/src/k8s.io/kubectl/pkg/cmd/config/{view.go, get_contexts.go, current_context.go,
// use_context.go, set_context.go}. The context's namespace is every later command's default
// namespace, which is why `config set-context --current --namespace=dev` is worth having; the
// context's user is every later command's identity (a token from set-credentials, else the admin
// certificate). Credentials print as DATA+OMITTED and tokens as REDACTED, as view does without --raw
// (which is not offered: the simulation's certificates are not real ones).
import { flagBool, flagString } from '../args.ts';
import type { Kubeconfig } from '../kubeconfig.ts';
import type { Ctx } from '../context.ts';
import { parseOutputFormat } from '../printers/output.ts';
import { alignTabs, GET_TABWRITER } from '../printers/tabwriter.ts';
import { toYAML } from '../printers/yaml-emit.ts';

/** Where kubeadm's admin.conf is copied for the terminal's user ($HOME/.kube/config). */
const KUBECONFIG_PATH = '/root/.kube/config';

const byName = <T extends { name: string }>(xs: readonly T[]): T[] => [...xs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * The kubeconfig as `config view` prints it (its keys sorted, as kubectl's printer does); --minify
 * keeps only what the current context (or --context) uses, and names it current.
 */
function viewObject(config: Kubeconfig, minify: boolean, contextName: string): Record<string, unknown> {
  const current = config.contexts.find((c) => c.name === contextName);
  const contexts = minify ? (current ? [current] : []) : byName(config.contexts);
  const clusters = minify ? config.clusters.filter((c) => c.name === current?.cluster) : byName(config.clusters);
  const users = minify ? config.users.filter((u) => u.name === current?.user) : byName(config.users);
  return {
    apiVersion: 'v1',
    clusters: clusters.map((c) => ({ cluster: { 'certificate-authority-data': 'DATA+OMITTED', server: c.server }, name: c.name })),
    contexts: contexts.map((c) => ({ context: { cluster: c.cluster, ...(c.namespace ? { namespace: c.namespace } : {}), user: c.user }, name: c.name })),
    'current-context': minify ? contextName : config.currentContext,
    kind: 'Config',
    preferences: {},
    users: users.map((u) => ({ name: u.name, user: u.token !== undefined ? { token: 'REDACTED' } : { 'client-certificate-data': 'DATA+OMITTED', 'client-key-data': 'DATA+OMITTED' } })),
  };
}

function configOf(ctx: Ctx): Kubeconfig | undefined {
  if (ctx.io.kubeconfig) return ctx.io.kubeconfig;
  ctx.error('no kubeconfig in this terminal');
  return undefined;
}

export function runConfigView(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (!config) return done();
  const output = flagString(ctx.args, 'output') ?? 'yaml';
  const view = viewObject(config, flagBool(ctx.args, 'minify'), flagString(ctx.args, 'context') ?? config.currentContext);
  if (output === 'json') ctx.out(`${JSON.stringify(view, null, 4)}\n`);
  else if (output === 'yaml') ctx.out(toYAML(view));
  else {
    const format = parseOutputFormat(output);
    ctx.error(format.ok ? `--output ${output} is not available for config view in this simulation` : format.error);
  }
  done();
}

export function runConfigGetContexts(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (!config) return done();
  const wanted = ctx.args.positionals;
  const missing = wanted.filter((n) => !config.contexts.some((c) => c.name === n));
  const shown = byName(config.contexts).filter((c) => wanted.length === 0 || wanted.includes(c.name));
  if (flagString(ctx.args, 'output') === 'name') {
    for (const c of shown) ctx.out(`${c.name}\n`);
  } else if (shown.length > 0 || missing.length === 0) {
    const rows = [['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE'], ...shown.map((c) => [c.name === config.currentContext ? '*' : '', c.name, c.cluster, c.user, c.namespace ?? ''])];
    ctx.out(alignTabs(rows.map((r) => r.join('\t')).join('\n') + '\n', GET_TABWRITER));
  }
  if (missing.length > 0) ctx.error(`context ${missing.map((m) => JSON.stringify(m)).join(', ')} not found`);
  done();
}

export function runConfigGetClusters(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (config) ctx.out(['NAME', ...byName(config.clusters).map((c) => c.name)].join('\n') + '\n');
  done();
}

export function runConfigGetUsers(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (config) ctx.out(['NAME', ...byName(config.users).map((u) => u.name)].join('\n') + '\n');
  done();
}

export function runConfigCurrentContext(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (config) {
    if (config.currentContext === '') ctx.error('current-context is not set');
    else ctx.out(`${config.currentContext}\n`);
  }
  done();
}

/** The one NAME a subcommand takes, or undefined after cobra's "Unexpected args" error. */
function oneName(ctx: Ctx, subcommand: string): string | undefined {
  const [name] = ctx.args.positionals;
  if (name !== undefined && ctx.args.positionals.length === 1) return name;
  ctx.error(`Unexpected args: []\nSee 'kubectl config ${subcommand} -h' for help and examples`);
  return undefined;
}

export function runConfigUseContext(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (!config) return done();
  const name = oneName(ctx, 'use-context');
  if (name === undefined) return done();
  if (!config.contexts.some((c) => c.name === name)) {
    ctx.error(`no context exists with the name: "${name}"`);
    return done();
  }
  config.currentContext = name;
  ctx.out(`Switched to context "${name}".\n`);
  done();
}

/** set-context [NAME | --current] [--cluster] [--user] [--namespace]: creates or modifies a context. */
export function runConfigSetContext(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (!config) return done();
  const current = flagBool(ctx.args, 'current');
  const [given] = ctx.args.positionals;
  if (current && given !== undefined) {
    ctx.error('you cannot specify both a context name and --current');
    return done();
  }
  const name = current ? config.currentContext : given;
  if (name === undefined || name === '') {
    ctx.error(current ? 'no current context is set' : "Unexpected args: []\nSee 'kubectl config set-context -h' for help and examples");
    return done();
  }
  let context = config.contexts.find((c) => c.name === name);
  const created = !context;
  if (!context) {
    context = { name, cluster: '', user: '' };
    config.contexts.push(context);
  }
  const cluster = flagString(ctx.args, 'cluster');
  const user = flagString(ctx.args, 'user');
  const namespace = flagString(ctx.args, 'namespace');
  if (cluster !== undefined) context.cluster = cluster;
  if (user !== undefined) context.user = user;
  if (namespace !== undefined) {
    if (namespace === '') delete context.namespace;
    else context.namespace = namespace;
  }
  ctx.out(`Context "${name}" ${created ? 'created' : 'modified'}.\n`);
  done();
}

/**
 * set-credentials NAME --token=T: a user who authenticates with a bearer token (a ServiceAccount's,
 * from `kubectl create token`); a context naming it makes every command send it. Client certificate
 * and key files cannot be given: the terminal has no files.
 */
export function runConfigSetCredentials(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (!config) return done();
  const name = oneName(ctx, 'set-credentials');
  if (name === undefined) return done();
  for (const flag of ['client-certificate', 'client-key', 'username', 'password']) {
    if (flagString(ctx.args, flag) !== undefined) {
      ctx.error(`--${flag} is not available in this simulation: use --token (kubectl create token <serviceaccount>)`);
      return done();
    }
  }
  let user = config.users.find((u) => u.name === name);
  if (!user) {
    user = { name };
    config.users.push(user);
  }
  const token = flagString(ctx.args, 'token');
  if (token !== undefined) {
    if (token === '') delete user.token;
    else user.token = token;
  }
  ctx.out(`User "${name}" set.\n`);
  done();
}

/** delete-context NAME (delete_context.go): the current context can be deleted too, with a warning; commands then fail until use-context. */
export function runConfigDeleteContext(ctx: Ctx, done: () => void): void {
  const config = configOf(ctx);
  if (!config) return done();
  const name = oneName(ctx, 'delete-context');
  if (name === undefined) return done();
  const i = config.contexts.findIndex((c) => c.name === name);
  if (i < 0) {
    ctx.error(`cannot delete context ${name}, not in ${KUBECONFIG_PATH}`);
    return done();
  }
  // the current-context stays as it was, naming a context that is gone
  if (config.currentContext === name) ctx.out('warning: this removed your active context, use "kubectl config use-context" to select a different one\n');
  config.contexts.splice(i, 1);
  ctx.out(`deleted context ${name} from ${KUBECONFIG_PATH}\n`);
  done();
}
