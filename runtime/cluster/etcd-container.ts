// What runs when a learner execs into kubeadm's etcd static pod (the CKA way to reach etcd:
// `kubectl -n kube-system exec etcd-cp-1 -- etcdctl --cacert=... --cert=... --key=... member list`).
// Kubernetes' etcd image is distroless with a static bash as /bin/sh and the etcd binaries
// (cluster/images/etcd/Dockerfile); the pod uses the host's network and mounts the host's
// /var/lib/etcd and /etc/kubernetes/pki/etcd (kubeadm phases/etcd/local.go).
// etcdctl dials https://127.0.0.1:2379 by default, which is this machine's member; kubeadm's etcd
// requires TLS with a client certificate (--client-cert-auth=true), so without --cacert, --cert
// and --key the connection never comes up and the command ends, after its 5 s command timeout,
// with "Error: context deadline exceeded" (the real client first logs a JSON retry warning naming
// the TLS failure, which is left out here). Everything else in the image runs through the CRI's
// userland model.
import { runEtcdctl, type EtcdctlFiles, type EtcdctlResult } from '../cli/index.ts';
import { execInUserland, hostProgramCall, type ExecOutput, type ExecResult } from '../cri/index.ts';
import type { EtcdClient, EtcdCluster } from '../etcd/index.ts';
import type { Kernel } from '../kernel/index.ts';

const PKI_ETCD = '/etc/kubernetes/pki/etcd';
/** What kubeadm puts in /etc/kubernetes/pki/etcd (certs/certlist.go): the etcd CA and three key pairs it signed. */
const KEY_PAIRS = ['server', 'peer', 'healthcheck-client'];
const CERT_FILES: ReadonlySet<string> = new Set([`${PKI_ETCD}/ca.crt`, `${PKI_ETCD}/ca.key`, ...KEY_PAIRS.flatMap((p) => [`${PKI_ETCD}/${p}.crt`, `${PKI_ETCD}/${p}.key`])]);
/** The pod's hostPath mounts: files written under them are the machine's (and the operator's). */
const HOST_MOUNTS = ['/var/lib/etcd/', `${PKI_ETCD}/`];
/** etcdctl's --command-timeout default. */
const COMMAND_TIMEOUT_MS = 5000;
/** etcdctl's defaults when neither --endpoints nor ETCDCTL_ENDPOINTS is given. */
const DEFAULT_ENDPOINTS = ['127.0.0.1:2379'];
/** cobrautl.ExitBadArgs: a client configuration etcdctl cannot even build. */
const EXIT_BAD_ARGS = 128;
/** Subcommands that never dial etcd (they read files or print). */
const OFFLINE = [/^version$/, /^snapshot (status|restore)$/, /^(help)?$/];

export interface EtcdContainerDeps {
  kernel: Kernel;
  etcd: EtcdCluster;
  /** The etcd member process in this pod (its machine's). */
  member: string;
  machine: string;
  /** The cluster's files: what the operator's etcdctl reads and writes, and the hostPath mounts here. */
  hostFiles: Map<string, string>;
}

/** The etcd container of one machine: runs an exec'd argv and calls `done` when it finished. */
export function etcdContainer(d: EtcdContainerDeps): (argv: readonly string[], stdin: string | undefined, done: (r: ExecResult) => void) => void {
  let client: EtcdClient | undefined;
  /** Files written outside the mounts, in the container's own layer: gone when the container restarts. */
  let layer = { incarnation: -1, files: new Map<string, string>() };
  const files = (): EtcdctlFiles => {
    const incarnation = d.kernel.process(d.member)?.incarnation ?? 0;
    if (layer.incarnation !== incarnation) layer = { incarnation, files: new Map() };
    return fileView(d.hostFiles, layer.files);
  };
  return (argv, stdin, done) => {
    const call = hostProgramCall('etcd', argv);
    if (!call) return done(execInUserland('etcd', argv, { hostname: d.machine, env: [], files: {}, ...(stdin !== undefined ? { stdin } : {}) }));
    const [program, ...args] = call.argv as [string, ...string[]];
    const finish = (r: EtcdctlResult, durationMs = 0): void => done({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, durationMs } satisfies ExecOutput);
    client ??= d.etcd.client({ name: `etcdctl@${d.machine}`, endpoints: ['https://127.0.0.1:2379'], localMember: d.member, timeoutMs: COMMAND_TIMEOUT_MS });
    const io = { files: files(), defaultEndpoints: endpointsOf(args, call.assignments), ...(stdin !== undefined ? { stdin } : {}) };
    if (program === 'etcdutl') return runEtcdutl(args, client, io, finish);
    const tls = tlsProblem(args, call.assignments, io.defaultEndpoints, commandOf(args));
    if (tls === 'timeout') return finish({ stdout: '', stderr: 'Error: context deadline exceeded\n', exitCode: 1 }, COMMAND_TIMEOUT_MS);
    if (tls !== undefined) return finish({ stdout: '', stderr: `Error: ${tls}\n`, exitCode: EXIT_BAD_ARGS });
    runEtcdctl(args.map(quoted).join(' '), client, io, (r) => finish(r));
  };
}

/** etcdutl: the offline snapshot commands (etcdctl's deprecated copies of them, without the notice). */
function runEtcdutl(args: string[], client: EtcdClient, io: { files: EtcdctlFiles }, finish: (r: EtcdctlResult) => void): void {
  const command = commandOf(args);
  if (command !== 'snapshot status' && command !== 'snapshot restore') {
    return finish({ stdout: '', stderr: 'etcdutl: present in this image, but only `etcdutl snapshot status|restore` is simulated by Inside the Control Plane\n', exitCode: 126 });
  }
  runEtcdctl(args.map(quoted).join(' '), client, io, (r) => finish({ ...r, stderr: r.stderr.replace(/^Deprecated: Use `etcdutl snapshot \w+` instead\.\n\n/, '') }));
}

/** The command words (e.g. "member list"), skipping flags and their values. */
function commandOf(args: readonly string[]): string {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const a = args[i]!;
    if (a.startsWith('-')) {
      if (!a.includes('=') && VALUE_FLAGS.has(a.replace(/^-+/, ''))) i++;
      continue;
    }
    words.push(a);
  }
  if (words.length === 2 && !['snapshot', 'member', 'endpoint', 'lease'].includes(words[0]!)) words.pop();
  return words.join(' ');
}

/** Global flags that take a value as the next word when written without `=`. */
const VALUE_FLAGS: ReadonlySet<string> = new Set(['endpoints', 'cacert', 'cert', 'key', 'write-out', 'w', 'command-timeout', 'dial-timeout', 'user', 'password']);

/** A global flag's value, from the command line or its ETCDCTL_ variable (the command line wins). */
function flagValue(args: readonly string[], assignments: readonly [string, string][], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i]!.startsWith(`--${name}=`)) return args[i]!.slice(name.length + 3);
  }
  return assignments.find(([k]) => k === `ETCDCTL_${name.toUpperCase().replace(/-/g, '_')}`)?.[1];
}

function endpointsOf(args: readonly string[], assignments: readonly [string, string][]): string[] {
  return flagValue(args, assignments, 'endpoints')?.split(',') ?? DEFAULT_ENDPOINTS;
}

/**
 * Why the client cannot talk to kubeadm's etcd: an error etcdctl prints before dialing (a file it
 * cannot read, a certificate without its key), 'timeout' when the TLS handshake never succeeds, or
 * undefined when the command may run.
 */
function tlsProblem(args: readonly string[], assignments: readonly [string, string][], endpoints: readonly string[], command: string): string | 'timeout' | undefined {
  const cacert = flagValue(args, assignments, 'cacert');
  const cert = flagValue(args, assignments, 'cert');
  const key = flagValue(args, assignments, 'key');
  for (const file of [cacert, cert, key]) if (file !== undefined && !CERT_FILES.has(file)) return `open ${file}: no such file or directory`;
  if ((cert === undefined) !== (key === undefined)) return `KeyFile and CertFile must both be present[key: ${key ?? ''}, cert: ${cert ?? ''}]`;
  if (OFFLINE.some((r) => r.test(command))) return undefined;
  const skipVerify = args.includes('--insecure-skip-tls-verify') || args.includes('--insecure-skip-tls-verify=true');
  // the server's certificate is signed by the etcd CA; it wants a client certificate the same CA signed
  const serverTrusted = cacert === `${PKI_ETCD}/ca.crt` || skipVerify;
  const pair = cert !== undefined && key !== undefined && cert.endsWith('.crt') && key === cert.replace(/\.crt$/, '.key');
  if (cert !== undefined && key !== undefined && !pair) return 'tls: private key does not match public key';
  const clientTrusted = pair && cert !== `${PKI_ETCD}/ca.crt`;
  if (endpoints.some((e) => e.startsWith('http://')) || !serverTrusted || !clientTrusted) return 'timeout';
  return undefined;
}

/** A word as the shell would need it to come back as one word. */
function quoted(word: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The container's files: the hostPath mounts are the machine's files, the rest the container's own layer. */
function fileView(host: Map<string, string>, layer: Map<string, string>): EtcdctlFiles {
  const owner = (path: string): Map<string, string> => (HOST_MOUNTS.some((m) => path.startsWith(m)) ? host : layer);
  return {
    get: (path) => owner(path).get(path),
    has: (path) => owner(path).has(path),
    set: (path, data) => owner(path).set(path, data),
  };
}
