// Tab completion for the live terminal: commands, subcommands, resource types, flags, and the
// names of the nodes and pods the cluster has right now. Pure: the terminal passes the line and
// the names it knows from the last snapshot.

export interface CompletionContext {
  nodes: readonly string[];
  pods: readonly string[];
}

export interface Completion {
  /** The line with the last word completed as far as every candidate agrees. */
  line: string;
  /** Every candidate for the last word (shown when there is more than one). */
  candidates: string[];
}

const KUBECTL_VERBS = [
  'annotate', 'api-resources', 'api-versions', 'apply', 'auth', 'cluster-info', 'config', 'cordon', 'create', 'delete',
  'describe', 'drain', 'events', 'exec', 'expose', 'get', 'label', 'logs', 'patch', 'replace', 'rollout', 'run', 'scale',
  'set', 'taint', 'top', 'uncordon', 'version', 'wait',
];
const KUBECTL_SUB: Record<string, string[]> = {
  auth: ['can-i', 'whoami'],
  rollout: ['history', 'restart', 'status', 'undo'],
  set: ['image'],
  config: ['current-context', 'get-contexts', 'use-context', 'view'],
  create: ['clusterrole', 'clusterrolebinding', 'configmap', 'deployment', 'namespace', 'priorityclass', 'role', 'rolebinding', 'secret', 'service', 'serviceaccount', 'token'],
  top: ['nodes', 'pods'],
};
const RESOURCES = [
  'clusterrolebindings', 'clusterroles', 'configmaps', 'daemonsets', 'deployments', 'endpointslices', 'events', 'leases',
  'namespaces', 'nodes', 'poddisruptionbudgets', 'pods', 'priorityclasses', 'replicasets', 'resourcequotas', 'rolebindings',
  'roles', 'secrets', 'serviceaccounts', 'services',
];
const TAKES_RESOURCE = new Set(['get', 'describe', 'delete', 'label', 'annotate', 'patch', 'edit', 'scale', 'wait']);
const KUBECTL_FLAGS = [
  '--all-namespaces', '--as', '--as-group', '--field-selector', '--filename', '--namespace', '--output', '--replicas',
  '--selector', '--show-labels', '--sort-by', '--watch', '-A', '-f', '-l', '-n', '-o', '-w',
];
const ETCDCTL_VERBS = ['compaction', 'del', 'endpoint', 'get', 'lease', 'member', 'put', 'snapshot', 'txn', 'watch'];
const ETCDCTL_SUB: Record<string, string[]> = {
  member: ['list'], endpoint: ['health', 'status'], snapshot: ['restore', 'save', 'status'], lease: ['grant', 'keep-alive', 'revoke'],
};
const ETCDCTL_FLAGS = ['--keys-only', '--prefix', '--print-value-only', '--rev', '--write-out', '-w'];

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0]!;
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** What may follow, given the words before the one being completed. */
function candidatesFor(before: readonly string[], word: string, ctx: CompletionContext): string[] {
  if (before.length === 0) return ['kubectl', 'etcdctl', 'clear', 'help'];
  const [program, verb, sub] = before;
  if (program === 'etcdctl') {
    if (word.startsWith('-')) return ETCDCTL_FLAGS;
    if (before.length === 1) return ETCDCTL_VERBS;
    if (before.length === 2 && verb && ETCDCTL_SUB[verb]) return ETCDCTL_SUB[verb]!;
    if (verb === 'get' || verb === 'del' || verb === 'watch') return ['/registry/'];
    return [];
  }
  if (program !== 'kubectl') return [];
  if (word.startsWith('-')) return KUBECTL_FLAGS;
  if (before.length === 1) return KUBECTL_VERBS;
  if (before.length === 2 && verb && KUBECTL_SUB[verb]) return KUBECTL_SUB[verb]!;
  const last = before.at(-1)!;
  if (last === '-n' || last === '--namespace') return ['default', 'kube-system', 'kube-node-lease', 'kube-public'];
  if (last === '-o' || last === '--output') return ['json', 'name', 'wide', 'yaml', 'jsonpath='];
  if (['cordon', 'uncordon', 'drain', 'taint'].includes(verb!)) return before.length === 2 ? [...ctx.nodes, 'nodes'] : [];
  if (verb === 'logs' || verb === 'exec') return before.length === 2 ? [...ctx.pods] : [];
  if (verb && TAKES_RESOURCE.has(verb)) {
    if (before.length === 2) return [...RESOURCES, ...RESOURCES.map((r) => `${r}/`)].filter((r) => !r.endsWith('/') || word.includes('/'));
    const resource = sub ?? '';
    if (/^(pods?|po)$/.test(resource)) return [...ctx.pods];
    if (/^(nodes?|no)$/.test(resource)) return [...ctx.nodes];
  }
  return [];
}

export function complete(line: string, ctx: CompletionContext): Completion {
  const endsWithSpace = /\s$/.test(line);
  const words = line.trim() === '' ? [] : line.trim().split(/\s+/);
  const word = endsWithSpace ? '' : (words.pop() ?? '');
  // "pods/web-..." and "nodes/cp-1": complete the name after the slash
  const slash = word.indexOf('/');
  let candidates: string[];
  let typed = word;
  let head = '';
  if (slash > 0 && words[0] === 'kubectl') {
    head = word.slice(0, slash + 1);
    typed = word.slice(slash + 1);
    const resource = word.slice(0, slash);
    candidates = /^(pods?|po)$/.test(resource) ? [...ctx.pods] : /^(nodes?|no)$/.test(resource) ? [...ctx.nodes] : [];
  } else {
    candidates = candidatesFor(words, word, ctx);
  }
  const matching = [...new Set(candidates.filter((c) => c.startsWith(typed)))].sort();
  if (matching.length === 0) return { line, candidates: [] };
  const completed = matching.length === 1 ? matching[0]! + (matching[0]!.endsWith('/') || matching[0]!.endsWith('=') ? '' : ' ') : commonPrefix(matching);
  const prefix = line.slice(0, line.length - word.length);
  return { line: prefix + head + completed, candidates: matching.length > 1 ? matching.map((m) => head + m) : [] };
}
