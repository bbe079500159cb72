// The terminal never throws: whatever a reader types into the page's terminal, however hostile,
// cluster.kubectl() and cluster.etcdctl() resolve with an integer exit code, a failure says
// something on stderr or stdout, and the cluster keeps working (`kubectl get nodes` exits 0 every
// 100 inputs and at the end of each property).
//
// Generated inputs, about 10,000 in all, each property on one cluster: kubectl token soup (real
// verbs, flags and resource names, quotes, unicode, control characters, very long words),
// well-formed kubectl commands with hostile arguments (these reach the API server), etcdctl
// token soup with hostile stdin, and `apply|create|replace|... -f -` with hostile YAML and JSON
// (alias bombs, self-referencing anchors, deep nesting, wrong types in every field of a
// Deployment, Pod, Service..., duplicate keys, !!binary and other tags, multi-document streams,
// null and non-object documents, lists in lists) plus a few megabyte-sized manifests.
//
// The simulation's last line of defence (cluster.ts turns an exception into "error: internal
// error in the simulation: ...") must never be what answers: such an answer fails the test.
//
// Replay: the runtime is deterministic and every property runs on its own cluster, so the seed
// alone reproduces a failure, with every input before it (fast-check prints the seed and the
// counterexample):
//   FC_SEED=<seed> npx vitest run runtime/cluster/terminal-never-throws.property.test.ts
// TERMINAL_FUZZ_SCALE=<n> multiplies every property's number of runs (a longer soak).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster, type CommandResult } from '../index.ts';

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
const envSeed = Number(env.FC_SEED);
const SEED = Number.isFinite(envSeed) ? envSeed : 20260707;
const scale = Number(env.TERMINAL_FUZZ_SCALE);
const SCALE = Number.isFinite(scale) && scale > 0 ? scale : 1;
const runs = (n: number): number => Math.max(1, Math.round(n * SCALE));

/** The last line of defence in cluster.ts; any answer from it is a bug the test reports. */
const INTERNAL_ERROR = 'internal error in the simulation';

// ---- a terminal on one cluster ----------------------------------------------------------------

interface Terminal {
  cluster: Cluster;
  inputs: number;
  /** Inputs during which the API server audited a request from kubectl. */
  reached: number;
  /** Whether the API server audited a request from kubectl since the last call. */
  sawKubectl(): boolean;
}

const totals: { name: string; inputs: number; reached: number; wallMs: number; cpuMs: number }[] = [];

function terminal(seed: number): Terminal {
  const cluster = createCluster({ seed, topology: 'single-node' });
  let saw = false;
  // a single-node cluster has one API server, which nothing here restarts
  cluster.internals.controlPlane.replicas[0]!.current()!.audit.subscribe((e) => {
    if (e.userAgent?.startsWith('kubectl')) saw = true;
  });
  return {
    cluster, inputs: 0, reached: 0,
    sawKubectl: () => {
      const s = saw;
      saw = false;
      return s;
    },
  };
}

const show = (s: string | undefined): string => (s === undefined ? 'undefined' : JSON.stringify(s.length > 400 ? `${s.slice(0, 400)}... (${s.length} chars)` : s));

/** What a JavaScript exception says, which no kubectl or etcdctl message does: a catch-all printed a bug. */
const JS_ERRORS = /Cannot read propert(y|ies) of|is not a function|is not iterable|Maximum call stack|Invalid code point|Converting circular structure|Invalid array length|Invalid string length|undefined is not|null is not/;

/** `kubectl auth can-i -q|--quiet` answers "no" with exit code 1 and nothing else, as documented. */
const quietByDesign = (tool: string, line: string): boolean => tool === 'kubectl' && line.includes('can-i') && /(^|\s)(-[A-Za-z]*q|--quiet)/.test(line);

/** Runs one input; fails (throws) on a synchronous throw, a rejection or a bad answer. */
async function enter(t: Terminal, tool: 'kubectl' | 'etcdctl', line: string, stdin?: string): Promise<CommandResult> {
  const what = `${tool} ${show(line)}${stdin === undefined ? '' : ` with stdin ${show(stdin)}`}`;
  const opts = stdin === undefined ? {} : { stdin };
  let pending: Promise<CommandResult>;
  try {
    pending = tool === 'kubectl' ? t.cluster.kubectl(line, opts) : t.cluster.etcdctl(line, opts);
  } catch (e) {
    throw new Error(`${what} threw synchronously: ${(e as Error)?.stack ?? String(e)}`);
  }
  let r: CommandResult;
  try {
    r = await pending;
  } catch (e) {
    throw new Error(`${what} rejected: ${(e as Error)?.stack ?? String(e)}`);
  }
  t.inputs++;
  if (t.sawKubectl()) t.reached++;
  if (!Number.isInteger(r.exitCode)) throw new Error(`${what}: exit code ${String(r.exitCode)} is not an integer`);
  if (r.exitCode !== 0 && `${r.stderr}${r.stdout}`.trim() === '' && !quietByDesign(tool, line)) throw new Error(`${what}: exit code ${r.exitCode} with nothing printed`);
  const leaked = JS_ERRORS.exec(r.stderr);
  if (leaked) throw new Error(`${what}: a JavaScript error leaked into the answer (${leaked[0]}): ${show(r.stderr)}`);
  if (r.stderr.includes(INTERNAL_ERROR)) throw new Error(`${what}: answered by the last line of defence: ${show(r.stderr)}`);
  if (t.inputs % 100 === 0) await healthy(t, what);
  return r;
}

/** The cluster still answers `kubectl get nodes` with exit 0. */
async function healthy(t: Terminal, after: string): Promise<void> {
  const r = await t.cluster.kubectl('get nodes');
  t.sawKubectl();
  if (r.exitCode !== 0) throw new Error(`after ${after}: kubectl get nodes exited ${r.exitCode}: ${show(r.stderr)}`);
}

/** One property on its own cluster: its runs, then a last health check and the counts. */
async function property<T>(name: string, seed: number, numRuns: number, arb: fc.Arbitrary<T>, body: (t: Terminal, input: T) => Promise<void>, setup?: (t: Terminal) => Promise<void>): Promise<Terminal> {
  const start = performance.now();
  const cpu = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage?.();
  const t = terminal(seed);
  if (setup) await setup(t);
  t.sawKubectl();
  // no shrinking: each run changes the cluster the next one meets, so a smaller input replayed
  // later proves little; the seed replays the whole sequence instead
  await fc.assert(fc.asyncProperty(arb, (input) => body(t, input)), { seed: SEED, numRuns, endOnFailure: true });
  await healthy(t, `the last of ${numRuns} inputs`);
  const wallMs = performance.now() - start;
  const used = cpu && (globalThis as { process?: { cpuUsage?: (from: unknown) => { user: number; system: number } } }).process?.cpuUsage?.(cpu);
  totals.push({ name, inputs: t.inputs, reached: t.reached, wallMs, cpuMs: used ? (used.user + used.system) / 1000 : Number.NaN });
  return t;
}

// ---- kubectl: words -------------------------------------------------------------------------

const pick = <T,>(xs: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...xs);

const VERBS = [
  'get', 'describe', 'apply', 'create', 'delete', 'replace', 'scale', 'label', 'patch', 'taint', 'cordon', 'uncordon',
  'drain', 'logs', 'exec', 'events', 'wait', 'auth', 'can-i', 'whoami', 'reconcile', 'api-resources', 'api-versions',
  'set', 'image', 'env', 'rollout', 'status', 'history', 'undo', 'restart', 'pause', 'resume', 'annotate', 'run',
  'expose', 'version', 'cluster-info', 'top', 'node', 'pod', 'config', 'view', 'get-contexts', 'current-context',
  'use-context', 'set-context', 'set-credentials', 'delete-context', 'explain', 'edit', 'port-forward', 'proxy', 'cp',
  'attach', 'diff', 'kustomize', 'plugin', 'completion', 'debug', 'certificate', 'kubectl', 'token', 'deployment',
  'service', 'clusterip', 'nodeport', 'configmap', 'secret', 'generic', 'docker-registry', 'serviceaccount', 'quota',
  'priorityclass', 'role', 'clusterrole', 'rolebinding', 'clusterrolebinding', 'poddisruptionbudget', 'pdb',
  'namespace', 'job', 'cronjob', 'ingress', 'help',
  // names Object.prototype has: a lookup by `in` or [] finds them
  'constructor', 'valueOf', '__proto__', 'toString', 'hasOwnProperty',
];
const RESOURCES = [
  'pods', 'po', 'pod/web', 'pods/web', 'deploy', 'deployment.apps', 'deployments.v1.apps', 'svc', 'services/kubernetes',
  'nodes', 'no', 'node/cp-1', 'ns', 'namespaces', 'rs', 'ds', 'daemonset/kube-proxy', 'sts', 'jobs', 'cm', 'secrets',
  'sa', 'roles', 'rolebindings', 'clusterroles', 'clusterrolebindings', 'pdb', 'quota', 'limitranges', 'events', 'ev',
  'events.events.k8s.io', 'leases', 'lease/cp-1', 'endpoints', 'endpointslices', 'priorityclasses', 'ipaddresses',
  'servicecidrs', 'controllerrevisions', 'all', 'pods,svc', 'po,deploy/web', 'deployment/web', 'xyz', 'pods.v1.', '.',
  '/', 'a/b/c', 'pods/', '/pods', 'pods//x', 'componentstatuses', 'cs', 'crd', 'pods.metrics.k8s.io', 'pods/log',
  'deploy/web/scale', 'selfsubjectaccessreviews', 'constructor', '__proto__', 'pods/constructor',
];
const NAMES = [
  'web', 'cp-1', 'kube-proxy', 'kindnet', 'kubernetes', 'default', 'kube-system', 'kube-public', 'coredns', 'x', '',
  'kubernetes-admin', 'kubernetes-admin@kubernetes', 'system:masters', 'cluster-admin', 'kube-root-ca.crt', 'nginx',
  'busybox', 'nginx:1.27', 'sh', '-c', 'echo hi', 'sleep 5', 'cat', 'ls', 'etcdctl', 'Web', 'a.b', 'a..b', '-', '--',
  'kube-apiserver-cp-1', 'etcd-cp-1', 'app=web', 'app!=web', 'app in (a,b)', '!app', 'a=b:NoSchedule', 'k-',
  'node-role.kubernetes.io/control-plane-', 'key=value:NoExecute', 'app=', 'metadata.name=web', 'status.phase!=Running',
  'spec.nodeName=cp-1', 'c=busybox', '*=busybox', 'web-7d9c8b7f5-abcde',
];
const LONG_FLAGS = [
  'namespace', 'as', 'as-group', 'token', 'server', 'context', 'kubeconfig', 'request-timeout', 'v', 'help', 'output',
  'selector', 'field-selector', 'all-namespaces', 'filename', 'recursive', 'sort-by', 'watch', 'watch-only',
  'show-labels', 'no-headers', 'raw', 'label-columns', 'show-kind', 'ignore-not-found', 'chunk-size',
  'output-watch-events', 'show-events', 'dry-run', 'server-side', 'force', 'prune', 'image', 'replicas', 'port',
  'save-config', 'min-available', 'max-unavailable', 'tcp', 'clusterip', 'node-port', 'external-name', 'from-literal',
  'from-file', 'from-env-file', 'type', 'docker-server', 'docker-username', 'docker-password', 'cert', 'key', 'verb',
  'resource', 'resource-name', 'non-resource-url', 'role', 'clusterrole', 'user', 'group', 'serviceaccount', 'hard',
  'scopes', 'value', 'global-default', 'description', 'preemption-policy', 'duration', 'audience', 'bound-object-kind',
  'bound-object-name', 'all', 'overwrite', 'grace-period', 'now', 'wait', 'timeout', 'current-replicas',
  'resource-version', 'revision', 'to-revision', 'local', 'ignore-daemonsets', 'delete-emptydir-data',
  'disable-eviction', 'pod-selector', 'patch', 'patch-file', 'subresource', 'list', 'container', 'follow', 'previous',
  'tail', 'timestamps', 'all-containers', 'since', 'since-time', 'limit-bytes', 'prefix', 'for', 'stdin', 'tty',
  'quiet', 'pod-running-timeout', 'types', 'namespaced', 'api-group', 'verbs', 'client', 'labels', 'env', 'restart',
  'command', 'expose', 'image-pull-policy', 'rm', 'attach', 'annotations', 'target-port', 'protocol', 'name',
  'external-ip', 'cluster-ip', 'session-affinity', 'minify', 'current', 'cluster', 'username', 'password',
  'unknown-flag', 'validate', 'field-manager', 'show-managed-fields', 'template',
];
const SHORT_FLAGS = ['n', 'o', 'l', 'A', 'f', 'R', 'w', 'L', 'r', 'p', 'c', 'i', 't', 'q', 'h', 's', 'v', 'z', 'Aw', 'it', 'nkube-system', 'ojson', 'x'];
/**
 * Flag values. Numbers are small or invalid: a valid huge --replicas (or a patch setting one)
 * would have the simulation create that many pods, as a real cluster would.
 */
const VALUES = [
  'yaml', 'json', 'wide', 'name', 'jsonpath={.items[*].metadata.name}', 'jsonpath={', 'jsonpath={.a[?(@.b=="c")]}',
  'jsonpath={range .items[*]}{.x}{"\\n"}{end}', 'jsonpath={.items[-1:]}', 'jsonpath={..name}', 'jsonpath={.a[1:0:-1]}',
  'jsonpath={.items[0].metadata.labels.*}', 'jsonpath={$}', 'jsonpath={@}', 'jsonpath={.a[999999999999]}',
  'jsonpath-as-json={.x}', 'jsonpath-file=x', 'go-template={{.x}}', 'go-template-file=x', 'template',
  'custom-columns=NAME:.metadata.name,X:.spec[*]', 'custom-columns=', 'custom-columns=A', 'custom-columns=A:{',
  'custom-columns-file=y', 'wide,json', 'YAML', 'jsonpath', '0', '1', '-1', '3', '2s', '1h', '-5s', '0.5s', '1e3',
  '18446744073709551616', '9007199254740993', '2147483648', '+3', '0x10', 'NaN', 'Infinity', 'true', 'false', 'client',
  'server', 'none', 'unchanged', 'merge', 'strategic', '[]', '{}', 'null', '{"spec":{"replicas":2}}',
  '{"spec":{"replicas":2147483648}}', '{"metadata":{"labels":{"a":"b"}}}', '{"metadata":{"labels":{"a":null}}}',
  '[{"op":"replace","path":"/spec/replicas","value":1}]', '[{"op":"remove","path":"/"}]', '[{"op":"move","from":"/a","path":"/a/b"}]',
  '[{"op":"add","path":"/metadata/labels/~1x","value":{}}]', '[{"op":"test","path":"/x","value":1}]', '[{"op":5}]',
  '{"spec":{"$patch":"delete"}}', '{"spec":{"template":{"spec":{"containers":[{"name":"c","$patch":"replace"}]}}}}',
  '{"spec":{"containers":[{"$setElementOrder/x":[]}]}}', '{"spec":{"template":{"spec":{"containers":null}}}}',
  '{"spec":null}', '{"metadata":null}', '{"spec":{"selector":{"matchLabels":{"$retainKeys":5}}}}',
  'condition=Ready', 'condition=Available=False', 'delete', 'create', 'jsonpath={.status.phase}=Running',
  'jsonpath=', 'condition=', '.metadata.name', '{.metadata.name}', '.status.containerStatuses[0].restartCount', 'a=b',
  'a=b,c=d', 'a', 'a:b', 'cpu=1,memory=1Gi,pods=2', 'pods=0', 'cpu=x', 'BestEffort', 'Never', 'Always', 'OnFailure',
  'IfNotPresent', 'TCP', 'UDP', 'SCTP', 'ClientIP', 'LoadBalancer', 'NodePort', 'ClusterIP', 'ExternalName', '80',
  '80:8080', '65536', '0:0', 'http', '10.96.0.50', '1.2.3.4', '::1', 'Pod', 'Secret', 'get,list', '*', 'pods/log',
  '/healthz', '/api', '/apis', '/api/v1/namespaces', '/../../', '/readyz?verbose', '/metrics', '/api/v1/pods?watch=true',
  '/api/v1/namespaces/default/pods/web/log', '/openapi/v2', '/version', '2006-01-02T15:04:05Z', 'yesterday', 'ALL',
  'Warning', 'Normal', 'pod/web', 'deploy/web', 'node/cp-1', 'https://10.0.0.1:6443', 'system:serviceaccount:default:default',
  'kubernetes-admin', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9./////w.x', '/////w', '50%', '101%', '-1%', 'x%',
  'constructor', '__proto__', 'jsonpath={.constructor}', 'custom-columns=A:.toString', 'create=toString',
  '/api/%zz', '/api/v1/namespaces/%ff/pods', '/readyz?verbose=%', 'a\ud800b', '%',
];
const UNICODE = ['é', '日本語', '🙂', '👩‍👩‍👧', '\u0301', '\u200b', '\u202e', '\ufeff', '\u2028', '\ud800', '\udfff', 'ǅ', 'ﬁ', 'Ⅻ', 'İ', 'ß'];
const CONTROL = ['\0', '\x07', '\x1b[31m', '\x1b]0;x\x07', '\r', '\n', '\t', '\v', '\f', '\x7f', '\x1b', '\b'];
const QUOTES = ["'", '"', '\\', "'a b'", '"a b"', '"a\\"b"', "'\\'", '\\ ', '$HOME', '`x`', '$(x)', ';', '|', '&&', '>', '<', '2>&1', '#', '*', '?', '~'];

const longWord = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 200, max: 3_000 }).map((n) => 'a'.repeat(n)) },
  { weight: 20, arbitrary: fc.tuple(fc.integer({ min: 1, max: 1_000 }), pick(['x', 'é', '🙂', '-', '=', '\\', '{', '[', '.', '/'])).map(([n, c]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.constant('p'.repeat(100_000)) },
);
const weird = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: fc.constantFrom(...CONTROL, ...UNICODE, ...QUOTES, 'a', '-', '=', ',', ':', '/', '.'), maxLength: 8 }),
);
const anyValue = fc.oneof({ weight: 4, arbitrary: pick(VALUES) }, { weight: 2, arbitrary: pick(NAMES) }, { weight: 1, arbitrary: weird });
const flag = fc.oneof(
  pick(LONG_FLAGS).map((f) => `--${f}`),
  fc.tuple(pick(LONG_FLAGS), anyValue).map(([f, v]) => `--${f}=${v}`),
  pick(SHORT_FLAGS).map((f) => `-${f}`),
  fc.tuple(pick(SHORT_FLAGS), pick(VALUES)).map(([f, v]) => `-${f}${v}`),
);
const word = fc.oneof(
  { weight: 6, arbitrary: pick(VERBS) },
  { weight: 5, arbitrary: pick(RESOURCES) },
  { weight: 4, arbitrary: pick(NAMES) },
  { weight: 6, arbitrary: flag },
  { weight: 4, arbitrary: pick(VALUES) },
  { weight: 2, arbitrary: pick(QUOTES) },
  { weight: 2, arbitrary: weird },
  { weight: 1, arbitrary: pick(UNICODE) },
  { weight: 1, arbitrary: pick(CONTROL) },
  { weight: 1, arbitrary: longWord },
);
/** A word as a shell would see it typed: bare, single-quoted or double-quoted. */
const quoted = (w: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(w, fc.constantFrom('', '', '', "'", '"')).map(([s, q]) =>
    q === "'" ? `'${s.replaceAll("'", '')}'` : q === '"' ? `"${s.replaceAll(/["\\$`]/g, '')}"` : s);
const sep = fc.constantFrom(' ', ' ', ' ', '  ', '\t', '\n', ' \\\n', '\\\n');
const joinWords = (first: string, rest: readonly (readonly [string, string])[]): string => first + rest.map(([s, w]) => s + w).join('');

/** Config subcommands that change the terminal's kubeconfig (the test puts admin.conf back after them). */
const CONFIG_MUTATIONS = ['config use-context', 'config set-context', 'config set-credentials', 'config delete-context', 'config set-context --current'];

const COMMAND_STARTS = [
  'get', 'describe', 'delete', 'create', 'apply', 'scale', 'label', 'annotate', 'patch', 'taint', 'logs', 'exec', 'run',
  'expose', 'wait', 'events', 'cordon', 'uncordon', 'drain', 'replace', 'top pod', 'top node', 'auth can-i',
  'auth whoami', 'set image', 'rollout status', 'rollout history', 'rollout undo', 'rollout restart', 'rollout pause',
  'rollout resume', 'config view', 'config get-contexts', 'config current-context', 'version', 'cluster-info',
  'api-resources', 'api-versions', 'create deployment web', 'create service clusterip', 'create service nodeport',
  'create configmap', 'create secret generic', 'create secret docker-registry', 'create role', 'create rolebinding',
  'create clusterrole', 'create quota', 'create priorityclass', 'create pdb', 'create token', 'create namespace',
  'create serviceaccount', 'get --raw', 'create job', 'create ingress', ...CONFIG_MUTATIONS,
];

/** Token soup: a command's first words (or any word), then up to seven more. */
const kubectlSoup = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: pick(COMMAND_STARTS) }, { weight: 1, arbitrary: word }, { weight: 1, arbitrary: fc.constant('') }),
  fc.array(fc.tuple(sep, quoted(word)), { maxLength: 7 }),
  fc.constantFrom('', '', 'kubectl '),
).map(([start, rest, prefix]) => joinWords(prefix + start, rest));

/** Real commands with real objects, each with arguments and flags drawn from hostile values. */
const SHAPES: readonly (readonly [string, readonly string[]])[] = [
  ['get R', ['output', 'selector', 'field-selector', 'all-namespaces', 'sort-by', 'show-labels', 'label-columns', 'show-kind', 'no-headers', 'chunk-size', 'ignore-not-found', 'namespace']],
  ['get R N', ['output', 'namespace', 'show-labels', 'watch', 'output-watch-events', 'show-managed-fields']],
  ['get --raw V', []],
  ['describe R N', ['namespace', 'show-events', 'selector', 'all-namespaces']],
  ['delete R N', ['namespace', 'dry-run', 'grace-period', 'force', 'now', 'wait', 'timeout', 'ignore-not-found', 'output', 'selector', 'all']],
  ['scale R N', ['replicas', 'current-replicas', 'resource-version', 'dry-run', 'output', 'timeout']],
  ['label R N V', ['overwrite', 'dry-run', 'output', 'list', 'resource-version', 'all', 'selector']],
  ['annotate R N V', ['overwrite', 'dry-run', 'output', 'list', 'resource-version']],
  ['patch R N', ['patch', 'type', 'dry-run', 'output', 'subresource']],
  ['taint nodes cp-1 V', ['overwrite', 'dry-run', 'output', 'all']],
  ['logs N', ['container', 'previous', 'tail', 'timestamps', 'since', 'since-time', 'limit-bytes', 'all-containers', 'prefix', 'selector', 'follow']],
  ['exec N -- V', ['container', 'stdin', 'tty', 'quiet']],
  ['run N', ['image', 'restart', 'labels', 'port', 'env', 'command', 'dry-run', 'output', 'image-pull-policy', 'annotations', 'expose', 'rm', 'attach', 'stdin']],
  ['expose R N', ['port', 'target-port', 'protocol', 'name', 'type', 'selector', 'cluster-ip', 'external-ip', 'session-affinity', 'dry-run', 'output']],
  ['wait R/N', ['for', 'timeout', 'selector', 'all', 'namespace']],
  ['rollout status R/N', ['timeout', 'revision', 'watch']],
  ['rollout undo R/N', ['to-revision', 'dry-run']],
  ['rollout history R/N', ['revision', 'output']],
  ['rollout restart R/N', ['dry-run', 'output']],
  ['set image R/N V', ['dry-run', 'output', 'all', 'local']],
  ['create deployment N', ['image', 'replicas', 'port', 'dry-run', 'output']],
  ['create configmap N', ['from-literal', 'from-file', 'from-env-file', 'dry-run', 'output']],
  ['create secret generic N', ['from-literal', 'type', 'dry-run', 'output']],
  ['create service clusterip N', ['tcp', 'clusterip', 'dry-run', 'output']],
  ['create service nodeport N', ['tcp', 'node-port', 'dry-run', 'output']],
  ['create quota N', ['hard', 'scopes', 'dry-run', 'output']],
  ['create pdb N', ['selector', 'min-available', 'max-unavailable', 'dry-run', 'output']],
  ['create role N', ['verb', 'resource', 'resource-name', 'dry-run', 'output']],
  ['create rolebinding N', ['role', 'clusterrole', 'user', 'group', 'serviceaccount', 'dry-run', 'output']],
  ['create priorityclass N', ['value', 'global-default', 'description', 'preemption-policy', 'dry-run', 'output']],
  ['create token N', ['duration', 'audience', 'bound-object-kind', 'bound-object-name', 'output']],
  ['create namespace N', ['dry-run', 'output']],
  ['cordon cp-1', ['dry-run', 'selector']],
  ['uncordon cp-1', ['dry-run']],
  ['drain cp-1', ['ignore-daemonsets', 'delete-emptydir-data', 'force', 'grace-period', 'timeout', 'dry-run', 'pod-selector', 'disable-eviction']],
  ['events', ['for', 'types', 'all-namespaces', 'output', 'watch', 'no-headers']],
  ['auth can-i V R', ['all-namespaces', 'subresource', 'list', 'quiet', 'as', 'as-group', 'namespace']],
  ['top pod', ['all-namespaces', 'selector']],
  ['api-resources', ['namespaced', 'api-group', 'verbs', 'output', 'sort-by', 'no-headers']],
  ['version', ['client', 'output']],
];
const OBJECT_NAMES = ['web', 'web2', 'cp-1', 'kube-proxy', 'kubernetes', 'settings', 'creds', 'x', 'sleeper', 'default', ''];
const REAL_RESOURCES = ['pods', 'deploy', 'deployment', 'svc', 'cm', 'secrets', 'nodes', 'rs', 'ds', 'ns', 'pdb', 'quota', 'leases', 'events', 'sa', 'roles', 'endpointslices', 'pods,svc'];
const wellFormed = fc
  .tuple(
    pick(SHAPES),
    fc.oneof({ weight: 3, arbitrary: pick(REAL_RESOURCES) }, { weight: 1, arbitrary: pick(RESOURCES) }),
    fc.oneof({ weight: 4, arbitrary: pick(OBJECT_NAMES) }, { weight: 1, arbitrary: pick(NAMES) }, { weight: 1, arbitrary: weird }),
    anyValue,
  )
  .chain(([[shape, flags], resource, name, value]) => {
    const line = shape.replace('R/N', `${resource.split(',')[0]!.split('/')[0]}/${name}`).replace(' R', ` ${resource}`).replace(' N', ` ${name === '' ? "''" : name}`).replace(' V', ` ${value === '' ? "''" : value}`);
    const flagArb = flags.length === 0 ? fc.constant([] as string[]) : fc.array(pick(flags).chain(flagWithValue), { maxLength: 4 });
    return fc.tuple(fc.constant(line), flagArb, fc.array(quoted(word), { maxLength: 1 }));
  })
  .map(([line, flags, extra]) => [line, ...flags.map((f) => quoteIfNeeded(f)), ...extra].join(' '));
const INT_FLAGS = new Set(['replicas', 'current-replicas', 'grace-period', 'tail', 'limit-bytes', 'revision', 'to-revision', 'port', 'node-port', 'value', 'chunk-size', 'v']);
const DURATION_FLAGS = new Set(['timeout', 'since', 'duration', 'pod-running-timeout', 'request-timeout']);
const BOOL_FLAGS = new Set(['all-namespaces', 'show-labels', 'show-kind', 'no-headers', 'ignore-not-found', 'watch', 'output-watch-events', 'show-events', 'force', 'now', 'wait', 'all', 'overwrite', 'list', 'previous', 'timestamps', 'all-containers', 'prefix', 'follow', 'stdin', 'tty', 'quiet', 'command', 'expose', 'rm', 'attach', 'global-default', 'ignore-daemonsets', 'delete-emptydir-data', 'disable-eviction', 'local', 'client']);
/** A flag with a value of its kind most of the time (small or invalid numbers only: see VALUES), else any value. */
const flagWithValue = (f: string): fc.Arbitrary<string> => {
  const typed = INT_FLAGS.has(f)
    ? pick(['0', '1', '2', '3', '-1', 'x', '1.5', '2147483648', '99999999999999999999'])
    : DURATION_FLAGS.has(f)
      ? pick(['1s', '0s', '2s', '500ms', '-1s', 'x', '5', '1h2m3.5s', '9999999h'])
      : BOOL_FLAGS.has(f)
        ? pick(['', '', 'true', 'false', 'x'])
        : anyValue;
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: anyValue }).map((v) => (v === '' && BOOL_FLAGS.has(f) ? `--${f}` : `--${f}=${v}`));
};
const quoteIfNeeded = (w: string): string => (/^[\w./:=,@%+-]*$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`);

/** admin.conf as kubeadm wrote it, back after a command that may have changed the kubeconfig. */
async function restoreKubeconfig(cluster: Cluster): Promise<void> {
  await cluster.kubectl('config set-credentials kubernetes-admin --token=');
  await cluster.kubectl('config set-context kubernetes-admin@kubernetes --cluster=kubernetes --user=kubernetes-admin --namespace=');
  await cluster.kubectl('config use-context kubernetes-admin@kubernetes');
}

/** A few objects for commands to find: a Deployment, a Pod, a Service, a ConfigMap, a Secret. */
const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx:1.27, ports: [{containerPort: 80}]}]}
---
apiVersion: v1
kind: Pod
metadata: {name: sleeper, labels: {app: sleeper}}
spec: {containers: [{name: c, image: busybox, command: [sh, -c, "echo hi; sleep 3600"]}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: b}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {password: hunter2}
`;
async function withWorkload(t: Terminal): Promise<void> {
  const r = await t.cluster.kubectl('apply -f -', { stdin: WORKLOAD });
  if (r.exitCode !== 0) throw new Error(`setup: ${r.stderr}`);
  await t.cluster.advance(20_000);
}

// ---- etcdctl ----------------------------------------------------------------------------------

const ETCD_WORDS = ['put', 'get', 'del', 'txn', 'compaction', 'watch', 'version', 'lease', 'grant', 'revoke', 'timetolive', 'keep-alive', 'member', 'list', 'endpoint', 'status', 'health', 'hashkv', 'snapshot', 'save', 'restore', 'defrag', 'alarm', 'move-leader', 'auth', 'user', 'role', 'check', 'help', 'etcdctl', 'constructor', 'toString', '__proto__'];
const ETCD_FLAGS = ['endpoints', 'write-out', 'command-timeout', 'dial-timeout', 'keepalive-time', 'keepalive-timeout', 'hex', 'debug', 'insecure-transport', 'insecure-skip-tls-verify', 'cacert', 'cert', 'key', 'user', 'password', 'discovery-srv', 'help', 'lease', 'prev-kv', 'ignore-value', 'ignore-lease', 'prefix', 'from-key', 'keys-only', 'rev', 'limit', 'print-value-only', 'count-only', 'order', 'sort-by', 'consistency', 'range', 'interactive', 'physical', 'keys', 'cluster', 'data-dir', 'name', 'initial-cluster', 'initial-cluster-token', 'initial-advertise-peer-urls', 'bump-revision', 'mark-compacted', 'progress-notify', 'exec', 'timeout'];
const ETCD_VALUES = ['simple', 'json', 'table', 'fields', 'protobuf', 'ASCEND', 'DESCEND', 'CREATE', 'KEY', 'MODIFY', 'VALUE', 'VERSION', 's', 'l', '0', '1', '-1', '5', '1000000000', '99999999999999999999', '10s', '1ms', '0s', 'abc', '694d7a5b1e2c3f00', 'ffffffffffffffff', '7fffffffffffffff', 'x', 'https://127.0.0.1:2379', 'http://nowhere:1', '', ',', 'snap.db', '/var/lib/etcd', 'default=https://x:2380'];
/**
 * Keys: mostly outside /registry, and /registry ones only read, watched or written with values
 * that are not objects (the API server skips what it cannot decode). A JSON object of the wrong
 * shape written under /registry is another story: the Go API server would refuse to decode it.
 */
const ETCD_KEYS = ['/registry', '/registry/', '/registry/pods/default/x', '/registry/minions/cp-1', '/registry/configmaps/default/x', '/x', 'foo', 'foo1', '\0', '\xff', '', 'a', 'z', '/registry/events/', '/registry/leases/'];
const etcdWord = fc.oneof(
  { weight: 5, arbitrary: pick(ETCD_WORDS) },
  { weight: 5, arbitrary: fc.oneof(pick(ETCD_FLAGS).map((f) => `--${f}`), fc.tuple(pick(ETCD_FLAGS), fc.oneof(pick(ETCD_VALUES), weird)).map(([f, v]) => `--${f}=${v}`), pick(['-w', '-wjson', '-i', '-d', '-h', '-x', '--'])) },
  { weight: 3, arbitrary: pick(ETCD_VALUES) },
  { weight: 4, arbitrary: pick(ETCD_KEYS) },
  { weight: 2, arbitrary: pick(QUOTES) },
  { weight: 2, arbitrary: weird },
  { weight: 1, arbitrary: longWord },
  { weight: 1, arbitrary: pick(CONTROL) },
);
const ETCD_STARTS = ['get', 'put', 'put x', 'del', 'del x', 'txn', 'compaction', 'watch', 'version', 'lease grant', 'lease revoke', 'lease timetolive', 'lease keep-alive', 'member list', 'endpoint status', 'endpoint health', 'endpoint hashkv', 'snapshot save', 'snapshot status', 'snapshot restore', 'get /registry --prefix --keys-only', 'get --from-key', 'get /registry/pods --prefix', 'watch /registry --prefix'];
/** etcdctl lines; no `del` of a /registry prefix (a wiped store would leave nothing to test). */
const etcdctlSoup = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: pick(ETCD_STARTS) }, { weight: 1, arbitrary: etcdWord }),
    fc.array(fc.tuple(sep, quoted(etcdWord)), { maxLength: 6 }),
    fc.constantFrom('', '', 'etcdctl '),
  )
  .map(([start, rest, prefix]) => joinWords(prefix + start, rest))
  .filter((l) => !(/\bdel\b/.test(l) && /registry/.test(l)) && !/\bdel\b.*(--prefix|--from-key)/.test(l));
const etcdStdin = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 40 }),
  pick(['', '\n', 'mod("a") > "0"\n\nput a b\n\n', 'create("x") = "0"\n\nput x 1\n\nget x\n', 'value("a") = "b"\n\n\n', 'put\n\n\n', 'garbage(\n', '\n\n\n\n', 'version("a") = "x"\n\nput a b\n\n', 'lease("a") = "z"\n\ndel a\n\n', 'put a "unterminated\n\n\n', 'put "" ""\n\n\n', 'get /registry --prefix\n\n\n', 'del /registry/pods/default/x\n\n\n', 'constructor("a") = "b"\n\n\n', 'value("a") toString "b"\n\n\n']),
);

// ---- manifests ----------------------------------------------------------------------------------

/** Scalars of every JSON type, the odd ones included (no valid huge integer: see VALUES). */
const hostileScalar = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 2147483648, -2147483649, 9007199254740993, 1e308, 1e-320, '', ' ', '0', 'true', 'null', '~', 'yes', 'on', '1e3', '0x1F', '1Gi', '500m', '-1', 'NaN', '.inf', 'Always', 'TCP', 'nginx', 'web', 'a/b', '../x', 'A_B', '日本', '\u0000', 'x'.repeat(70), 'x'.repeat(300)),
  fc.integer({ min: -5, max: 5 }),
  fc.string({ maxLength: 10 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(pick(['name', 'image', 'port', 'containerPort', 'protocol', 'key', 'value', 'app', '', '$patch', '__proto__']), fc.string({ maxLength: 6 })), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** Valid objects to break: a Deployment (one replica), a Pod, a Service, a ConfigMap... */
const baseObjects = (name: string): Record<string, unknown>[] => [
  {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '10m', memory: '16Mi' } }, readinessProbe: { httpGet: { port: 80, path: '/' }, periodSeconds: 5 } }] } } },
  },
  { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: name } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hi'], env: [{ name: 'A', value: 'b' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }], ports: [{ containerPort: 8080, protocol: 'TCP' }], volumeMounts: [{ name: 'v', mountPath: '/v' }] }], volumes: [{ name: 'v', emptyDir: {} }], tolerations: [{ key: 'k', operator: 'Exists' }], nodeSelector: { a: 'b' } } },
  { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'ClusterIP', selector: { app: name }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP', name: 'http' }] } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', annotations: { a: 'b' } }, data: { k: 'v' } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', data: { k: 'dg==' } },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `${name}-rs` }, spec: { replicas: 1, selector: { matchLabels: { rs: name } }, template: { metadata: { labels: { rs: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${name}-ns` } },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [{ kind: 'User', name: 'jane' }] },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: name } } } },
  { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: `${name}-q` }, spec: { hard: { pods: '100' } } },
  { apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Container', default: { cpu: '100m' } }] } },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 10 },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name, leaseDurationSeconds: 15 } },
];

/** Every path to a value in an object, parents first. */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (v === null || typeof v !== 'object') return [prefix];
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return [prefix, ...entries.flatMap(([k, x]) => paths(x, [...prefix, k]))];
}
function setAt(obj: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = (Array.isArray(obj) ? [...(obj as unknown[])] : { ...(obj as Record<string, unknown>) }) as Record<string | number, unknown>;
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}
/** A valid object with up to three fields given a value of the wrong type, dropped, or added. */
const brokenObject = fc
  .tuple(pick(['web', 'api', 'db', 'x1', 'web2']), fc.nat(), fc.array(fc.tuple(fc.nat(), hostileValue, pick(['set', 'set', 'drop', 'add'] as const)), { maxLength: 3 }))
  .map(([name, which, edits]) => {
    const objects = baseObjects(name);
    let obj: unknown = objects[which % objects.length];
    for (const [at, value, how] of edits) {
      const all = paths(obj).filter((p) => p.length > 0);
      const path = all[at % all.length]!;
      obj = how === 'drop' ? setAt(obj, path, undefined) : how === 'add' ? setAt(obj, [...path.slice(0, -1), 'extraField'], value) : setAt(obj, path, value);
    }
    return JSON.parse(JSON.stringify(obj) ?? 'null') as unknown; // dropped fields disappear
  });

/** Billion laughs: level n is a list of `width` aliases of level n-1. */
const aliasBomb = fc.tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 10 }), fc.boolean()).map(([levels, width, flow]) => {
  const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < levels; i++) {
    lines.push(flow ? `l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(', ')}]` : `l${i}: &l${i}\n${Array(width).fill(`  - *l${i - 1}`).join('\n')}`);
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n  ${lines.join('\n').replaceAll('\n', '\n  ')}\n`;
});

const YAML_CASES = [
  'a: &a [*a]\n', 'a: &a {b: *a}\n', 'a: *nope\n', '*a\n', 'kind: Pod\napiVersion: v1\nmetadata: &m\n  name: p\n  labels: *m\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: shared}\ndata: &d {a: b}\n---\napiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: ConfigMap, metadata: {name: s1, labels: &l {a: b}}, data: *d}, {apiVersion: v1, kind: ConfigMap, metadata: {name: s2, labels: *l}, data: *d}]\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bin}\nbinaryData: {x: !!binary aGVsbG8=}\ndata: {y: !!binary aGVsbG8=, z: !!binary /////w==}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bin}\ndata: {y: !!binary "not base64!"}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata: !!set {a, b}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata: !!omap [a: 1]\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t, creationTimestamp: !!timestamp 2001-12-14}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: !!int x}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n  name: e\n', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx, ports: [{containerPort: 1e400}]}]}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx, ports: [{containerPort: .nan}]}]}\n',
  '? [a, b]\n: c\n', '? {a: b}\n: c\n', '<<: {apiVersion: v1, kind: ConfigMap}\nmetadata: {name: merged}\n', '<<: [*x]\n', 'a: !!merge 1\n', '__proto__: {kind: Pod}\napiVersion: v1\n',
  '- a\n- b\n', '"just a string"\n', '42\n', 'true\n', '~\n', 'null\n', '---\n---\n---\n', '...\n', '--- |\n  text\n', '%YAML 1.1\n---\na: 1\n', '%YAML 2.0\n---\na: 1\n', '%TAG ! tag:x,2000:\n---\n!foo a\n',
  '\t- a\n', '{', '[', '}', ']', '"', "'", '{a: 1', '[1, 2', 'a: b: c\n', 'a:\n- b\n c\n', '- - - - - - - - - - -\n', '&a\n', '!\n', '!!\n', '! a\n', '? \n', ': \n', '@\n', '`\n', '%\n',
  'apiVersion: v1\nkind: List\nitems: [1, null, "x", [2], {kind: ConfigMap}, {apiVersion: v1, kind: ConfigMap, metadata: {name: li}}]\n',
  'apiVersion: v1\nkind: List\nitems: [null]\n', 'apiVersion: v1\nkind: List\nitems: [{metadata: {name: noKind}}]\n', 'apiVersion: v1\nkind: List\nitems: 5\n',
  'apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: nested}}]}]\n', 'kind: List\n', 'apiVersion: v1\nkind: List\nitems: []\n',
  'apiVersion: v1\nkind: ConfigMapList\nitems: [{metadata: {name: typed-item}}]\n', 'apiVersion: v1\nkind: Status\n', 'apiVersion: v1\nkind: Event\nmetadata: {name: e}\n', 'apiVersion: v1\nkind: Binding\nmetadata: {name: b}\ntarget: {name: cp-1}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "a\\u0000b"}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "\\ud800"}\n', '\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata: {name: bom}\n',
  'apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: crlf}\r\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: nope}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: g-}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, resourceVersion: "1"}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, resourceVersion: "abc"}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, uid: 5, ownerReferences: [{}]}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, managedFields: [{manager: 1}]}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, finalizers: [x/y]}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, deletionTimestamp: "2020-01-01T00:00:00Z"}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: "x"\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: 5\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: [a]\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: null\n',
  'apiVersion: v1\nkind: Node\nmetadata: {name: cp-1}\nspec: {unschedulable: "yes"}\n', 'apiVersion: v1\nkind: Node\nmetadata: {name: cp-1}\nspec: {taints: [{key: a, effect: Bogus}]}\n', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system}\nspec: {finalizers: [1]}\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2147483648, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx}]}}}\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1.5, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx}]}}}\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: "1", selector: {matchExpressions: [{key: a, operator: Bogus}]}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx}]}}}\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: "200%", maxUnavailable: -1}}, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: "1x", memory: -1}, limits: {cpu: [1]}}}]}}}\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: nulls}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx}, null], volumes: [null]}}}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx, livenessProbe: {httpGet: {port: "http"}, periodSeconds: 0}, readinessProbe: {exec: {command: 5}}}]}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: probes}\nspec: {containers: [{name: c, image: nginx, livenessProbe: {exec: {command: [sh]}, periodSeconds: 0, timeoutSeconds: 0, failureThreshold: 0}}]}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx, env: [{name: A, valueFrom: {fieldRef: {fieldPath: x}}}, {name: B, valueFrom: {secretKeyRef: {}}}]}], volumes: [{name: v, emptyDir: {sizeLimit: "x"}}, {name: v, projected: {sources: [{}]}}]}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Gt, values: [x]}]}]}}, podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: ""}]}}, containers: [{name: c, image: nginx}]}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: nullpod}\nspec: {containers: [null], initContainers: [null], tolerations: [null], imagePullSecrets: [null]}\n',
  'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {type: NodePort, ports: [{port: 80, nodePort: 1}, {port: 80}], clusterIP: 999.1.1.1}\n', 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {type: ExternalName}\n',
  'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {clusterIP: None, ports: [{port: 0}], sessionAffinity: ClientIP, sessionAffinityConfig: {clientIP: {timeoutSeconds: -1}}}\n',
  'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: "not base64!"}\n', 'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: 1}\ntype: kubernetes.io/tls\n',
  'apiVersion: v1\nkind: Secret\nmetadata: {name: dcj}\ntype: kubernetes.io/dockerconfigjson\ndata: {.dockerconfigjson: /////w==}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: kube-system, annotations: {kubernetes.io/config.mirror: x}}\nspec: {nodeName: cp-1, priorityClassName: nope, containers: [{name: c, image: nginx}]}\n',
  'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: nospec}\n', 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: nullspec}\nspec: null\n', 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: strspec}\nspec: "x"\n',
  'apiVersion: policy/v1\nkind: Eviction\nmetadata: {name: x}\n', 'apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectAccessReview\nspec: {}\n', 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}\nsecrets: 1\n',
  'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l}\nspec: null\n', 'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: rq}\n', 'apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec: {limits: [null]}\n',
  'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n', 'apiVersion: v1\nkind: Pod\n', 'apiVersion: v1\nkind: Pod\nmetadata: null\n', 'apiVersion: v1\nkind: Pod\nmetadata: []\n',
  'apiVersion: [v1]\nkind: Pod\n', 'apiVersion: v1\nkind: {a: b}\n', 'apiVersion: v1\nkind: ""\n', 'apiVersion: ""\nkind: Pod\n', 'apiVersion: /v1\nkind: Pod\nmetadata: {name: p}\n', 'apiVersion: a/b/c\nkind: Pod\nmetadata: {name: p}\n', 'apiVersion: v1\nkind: pod\nmetadata: {name: p}\n',
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {"": x, "a/b/c": x, "-x": "-", "x": "${'x'.repeat(64)}"}}\n`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: [a]}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {a: {b: c}}}\n',
];

/** Nesting N deep: flow and block YAML, and JSON. */
const deepDocument = fc.tuple(fc.integer({ min: 20, max: 600 }), pick(['[', '{a: ', '- ', '{"a":', 'a:\n'])).map(([n, open]) => {
  if (open === '[') return `${'['.repeat(n)}${']'.repeat(n)}\n`;
  if (open === '{a: ') return `${'{a: '.repeat(n)}1${'}'.repeat(n)}\n`;
  if (open === '{"a":') return `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  if (open === '- ') return `${'- '.repeat(Math.min(n, 500))}x\n`;
  return `${Array.from({ length: Math.min(n, 300) }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`;
});

/** A value printed as block YAML (every key quoted, so none reads as something else). */
function blockYAML(v: unknown, indent = ''): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : v.map((x) => `\n${indent}- ${blockYAML(x, `${indent}  `).trimStart()}`).join('');
  const entries = Object.entries(v);
  return entries.length === 0 ? '{}' : entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${blockYAML(x, `${indent}  `)}`).join('');
}
const printed = fc
  .tuple(fc.oneof({ weight: 4, arbitrary: brokenObject }, { weight: 1, arbitrary: hostileValue }), pick(['block', 'json', 'json-pretty'] as const))
  .map(([v, how]) => (how === 'block' ? `${blockYAML(v).trimStart()}\n` : how === 'json' ? (JSON.stringify(v) ?? 'null') : (JSON.stringify(v, null, 2) ?? 'null')));

const oneDocument = fc.oneof(
  { weight: 8, arbitrary: printed },
  { weight: 3, arbitrary: pick(YAML_CASES) },
  { weight: 1, arbitrary: aliasBomb },
  { weight: 1, arbitrary: deepDocument },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);
/** One document, several (---, blank lines, ... between them), or nearly nothing. */
const manifestText = fc.oneof(
  { weight: 6, arbitrary: oneDocument },
  { weight: 3, arbitrary: fc.tuple(fc.array(oneDocument, { minLength: 2, maxLength: 4 }), pick(['---\n', '\n---\n', '\n', '\n...\n---\n'])).map(([docs, s]) => docs.join(s)) },
  { weight: 1, arbitrary: pick(['', '\n', '---', '---\n---\n', '# only a comment\n', '\0', '\ufeff']) },
);
/** Commands that read -f -: most write through the API server, many only as a server dry run. */
const manifestCommand = pick([
  'apply -f -', 'create -f -', 'apply --dry-run=server -f -', 'create --dry-run=server -f -', 'apply --dry-run=server -f -',
  'apply --dry-run=client -f - -o yaml', 'create -f - -o json --dry-run=server', 'replace -f -', 'replace --force -f -',
  'delete -f -', 'apply --server-side -f -', 'get -f -', 'get -f - -o yaml', 'describe -f -', 'label -f - a=b --overwrite',
  'scale -f - --replicas=1', 'apply -f - -n kube-system', 'wait -f - --for=delete --timeout=1s', 'rollout status -f - --timeout=1s',
  'set image -f - c=busybox', 'expose -f - --port=80', 'apply -R -f -', 'annotate -f - a=b', 'patch -f - -p {}',
  'rollout restart -f -', 'apply -f - -o name', 'create -f - --save-config', 'apply -f - --validate=strict',
]);
const hugeManifest = fc.tuple(fc.integer({ min: 100_000, max: 2_000_000 }), pick(['data', 'name', 'label', 'key', 'list'] as const)).map(([n, where]) => {
  const s = 'x'.repeat(n);
  if (where === 'data') return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {a: "${s}"}\n`;
  if (where === 'name') return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${s}}\n`;
  if (where === 'label') return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, labels: {a: ${s}}}\n`;
  if (where === 'list') return `apiVersion: v1\nkind: List\nitems:\n${'- {apiVersion: v1, kind: ConfigMap, metadata: {name: many}}\n'.repeat(Math.min(2_000, Math.floor(n / 60)))}`;
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {${s}: a}\n`;
});

// ---- the properties ---------------------------------------------------------------------------

describe(`the terminal never throws (seed ${SEED})`, { timeout: 240_000 }, () => {
  afterAll(() => {
    const inputs = totals.reduce((a, t) => a + t.inputs, 0);
    const reached = totals.reduce((a, t) => a + t.reached, 0);
    const lines = totals.map((t) => `  ${t.name}: ${t.inputs} inputs, ${t.reached} reached the API server, ${(t.wallMs / 1000).toFixed(1)} s (${(t.cpuMs / 1000).toFixed(1)} s of CPU)`);
    console.log(`terminal-never-throws (seed ${SEED}): ${inputs} inputs, ${reached} reached the API server\n${lines.join('\n')}`);
  });

  it('kubectl token soup: verbs, flags, resources, quotes, unicode, control characters, long words', async () => {
    const t = await property('kubectl token soup', 1, runs(3_700), kubectlSoup, async (term, line) => {
      await enter(term, 'kubectl', line);
      if (line.includes('config')) await restoreKubeconfig(term.cluster);
    }, withWorkload);
    expect(t.inputs).toBe(runs(3_700));
    expect(t.reached).toBeGreaterThan(runs(3_700) / 20);
  });

  it('kubectl commands of the right shape with hostile arguments and flag values', async () => {
    const t = await property('kubectl well-formed commands', 2, runs(2_500), wellFormed, async (term, line) => {
      await enter(term, 'kubectl', line);
    }, withWorkload);
    expect(t.reached).toBeGreaterThan(runs(2_500) / 4);
  });

  it('etcdctl token soup, with hostile stdin', async () => {
    const t = await property('etcdctl token soup', 3, runs(2_000), fc.tuple(etcdctlSoup, etcdStdin), async (term, [line, stdin]) => {
      await enter(term, 'etcdctl', line, stdin);
    });
    expect(t.inputs).toBe(runs(2_000));
  });

  it('apply, create, replace... -f - with hostile YAML and JSON', async () => {
    const t = await property('manifests on stdin', 4, runs(2_000), fc.tuple(manifestCommand, manifestText), async (term, [line, stdin]) => {
      await enter(term, 'kubectl', line, stdin);
    });
    expect(t.reached).toBeGreaterThan(runs(2_000) / 5);
  });

  it('manifests of megabytes', async () => {
    await property('huge manifests', 5, runs(10), fc.tuple(pick(['apply -f -', 'create --dry-run=server -f -', 'apply --dry-run=client -f - -o name']), hugeManifest), async (term, [line, stdin]) => {
      await enter(term, 'kubectl', line, stdin);
    });
  });
});
