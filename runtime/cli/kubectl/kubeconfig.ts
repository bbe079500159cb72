// The terminal's kubeconfig: what kubeadm writes to admin.conf (cluster "kubernetes", user
// "kubernetes-admin", context "kubernetes-admin@kubernetes"), kept between commands; `kubectl config`
// (commands/config.ts) reads and changes it, and its current context's namespace is every command's
// default namespace.

export interface KubeconfigContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

/** The terminal's kubeconfig: kept between commands, changed by `config use-context` and `set-context`. */
export interface Kubeconfig {
  clusters: { name: string; server: string }[];
  /** A user's bearer token (set-credentials --token); none: kubeadm's admin client certificate. */
  users: { name: string; token?: string }[];
  contexts: KubeconfigContext[];
  currentContext: string;
}

/** admin.conf as kubeadm writes it for a cluster served at `server`. */
export function adminKubeconfig(server: string): Kubeconfig {
  return {
    clusters: [{ name: 'kubernetes', server }],
    users: [{ name: 'kubernetes-admin' }],
    contexts: [{ name: 'kubernetes-admin@kubernetes', cluster: 'kubernetes', user: 'kubernetes-admin' }],
    currentContext: 'kubernetes-admin@kubernetes',
  };
}

/** The namespace commands use when -n is not given: the current (or --context) context's. */
export function contextNamespace(config: Kubeconfig, contextName?: string): string | undefined {
  return config.contexts.find((c) => c.name === (contextName ?? config.currentContext))?.namespace;
}

/**
 * The credentials the current (or --context) context's user holds: a token set with
 * set-credentials, nothing for a user without one (the terminal's admin certificate), or an error
 * when the context or its user is not in the kubeconfig (clientcmd's validation).
 */
export function contextCredentials(config: Kubeconfig, contextName?: string): { ok: true; token?: string } | { ok: false; error: string } {
  const name = contextName ?? config.currentContext;
  const context = config.contexts.find((c) => c.name === name);
  if (!context) {
    if (contextName !== undefined) return { ok: false, error: `context "${name}" does not exist` };
    return name === '' ? { ok: true } : { ok: false, error: `invalid configuration: context was not found for specified context: ${name}` };
  }
  const user = config.users.find((u) => u.name === context.user);
  if (!user) return { ok: false, error: `invalid configuration: user "${context.user}" was not found for context "${context.name}"` };
  return user.token !== undefined ? { ok: true, token: user.token } : { ok: true };
}
