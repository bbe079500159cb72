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
  users: { name: string }[];
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
