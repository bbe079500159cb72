// The kubelet's /exec endpoint (pkg/kubelet/server/server.go getExec, then kubelet_pods.go GetExec
// and findContainer): the pod from the kubelet's pod manager, its running container by name, then
// the runtime runs the command (CRI Exec; the streaming session is one request and one answer
// here, since nothing is typed into it). What the process sees is what the kubelet sets up for
// every container: the hostname, the environment (PATH, HOSTNAME, the container's literal env,
// HOME), and the files it mounts: /etc/hosts (kubelet_pods.go managedHostsFileContent),
// /etc/resolv.conf (dns.go for the pod's dnsPolicy) and /etc/hostname.
import {
  isContainerExecRequest,
  type ContainerExecRequest, type ContainerExecResponse, type Pod, type PodStatus,
} from '../api/index.ts';
import type { Lister } from '../client/index.ts';
import type { ContainerRuntime, ExecEnvironment, ExecResult, PodNetworkAccess } from '../cri/index.ts';
import type { ProcessContext } from '../kernel/index.ts';

export interface ExecServerDeps {
  pods: Lister<Pod>;
  statusOf(namespace: string, name: string): PodStatus | undefined;
  cri: ContainerRuntime;
  /** A static pod's container (its process runs outside the CRI here): runs argv in its image. */
  staticExec?(pod: Pod, container: string, argv: readonly string[]): ExecResult | undefined;
  /** KubeletConfiguration clusterDNS and clusterDomain. */
  clusterDNS: string;
  clusterDomain: string;
  /** The node's own resolv.conf (what dnsPolicy Default and host-network pods get). */
  hostResolvConf: string;
  /** The network namespace of the pod with this IP (the CNI plugin's). */
  podNetwork?(podIP: string): PodNetworkAccess;
}

/** The kubelet server's exec route: answers the API server's call once the command is done; false for other messages. */
export function execRoute(ctx: ProcessContext, d: ExecServerDeps): (msg: unknown, from: string) => boolean {
  return (msg, from) => {
    if (!isContainerExecRequest(msg)) return false;
    const answer = execInPod(d, msg);
    const reply = { type: 'kubelet.exec.response', id: msg.id, ...answer.response } satisfies ContainerExecResponse;
    if (answer.durationMs > 0) ctx.setTimer(answer.durationMs, () => ctx.send(from, reply));
    else ctx.send(from, reply);
    return true;
  };
}

export function execInPod(d: ExecServerDeps, req: ContainerExecRequest): { response: Omit<ContainerExecResponse, 'type' | 'id'>; durationMs: number } {
  const fail = (code: number, body: string) => ({ response: { code, body }, durationMs: 0 });
  const pod = d.pods.get(req.namespace, req.pod);
  if (!pod) return fail(404, 'pod does not exist');
  const env = environmentOf(d, pod, req.container);
  let result = d.staticExec?.(pod, req.container, req.command);
  if (!result) {
    // findContainer: the pod's running container of that name, as the runtime lists it
    const status = (d.statusOf(req.namespace, req.pod) ?? pod.status)?.containerStatuses?.find((s) => s.name === req.container);
    const id = runtimeIdOf(status?.state?.running ? status.containerID : undefined);
    if (id === '' || d.cri.containerStatus(id)?.state !== 'running') return fail(500, `container not found ("${req.container}")`);
    result = d.cri.exec(id, req.command, env);
  }
  // the streaming server answers the upgrade (101), then reports on the error stream
  if ('startError' in result) return { response: { code: 101, body: '', error: `error executing command in container: ${result.startError}` }, durationMs: 0 };
  return { response: { code: 101, body: '', stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }, durationMs: result.durationMs };
}

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What the container's process sees (its spec's env values; valueFrom sources are not resolved here). */
function environmentOf(d: ExecServerDeps, pod: Pod, container: string): ExecEnvironment {
  const name = pod.metadata.name ?? '';
  const hostname = (pod.spec.hostname ?? name).slice(0, 63);
  const spec = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === container);
  const env: [string, string][] = [['PATH', PATH], ['HOSTNAME', hostname]];
  for (const e of spec?.env ?? []) if (e.value !== undefined) env.push([e.name, e.value]);
  if (!env.some(([k]) => k === 'HOME')) env.push(['HOME', '/root']);
  const podIP = pod.status?.podIP;
  const network = podIP && !pod.spec.hostNetwork ? d.podNetwork?.(podIP) : undefined;
  return {
    hostname,
    env,
    ...(network ? { network } : {}),
    files: {
      '/etc/hostname': `${hostname}\n`,
      '/etc/hosts': hostsFile(pod, hostname),
      '/etc/resolv.conf': resolvConf(d, pod),
    },
  };
}

/** managedHostsFileContent: the header, localhost lines, the pod's IPs with its (FQDN and) hostname. */
function hostsFile(pod: Pod, hostname: string): string {
  if (pod.spec.hostNetwork) return '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';
  let text = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip) => ip !== '');
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  const subdomain = pod.spec.subdomain;
  const domain = subdomain ? `${subdomain}.${pod.metadata.namespace ?? 'default'}.svc.cluster.local` : '';
  for (const ip of ips) text += domain ? `${ip}\t${hostname}.${domain}\t${hostname}\n` : `${ip}\t${hostname}\n`;
  return text;
}

/** dns.go GetPodDNS: ClusterFirst pods ask the cluster DNS with the namespace's search list; others get the node's file. */
function resolvConf(d: ExecServerDeps, pod: Pod): string {
  const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
  const clusterFirst = policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !pod.spec.hostNetwork);
  // None takes everything from spec.dnsConfig, which this simulation's Pod type does not carry
  if (policy === 'None') return '';
  if (!clusterFirst) return d.hostResolvConf;
  const ns = pod.metadata.namespace ?? 'default';
  const domain = d.clusterDomain;
  return `search ${ns}.svc.${domain} svc.${domain} ${domain}\nnameserver ${d.clusterDNS}\noptions ndots:5\n`;
}

/** "containerd://<id>" -> "<id>" (kubecontainer.ParseContainerID). */
function runtimeIdOf(containerID: string | undefined): string {
  const sep = (containerID ?? '').indexOf('://');
  return sep < 0 ? (containerID ?? '') : containerID!.slice(sep + 3);
}
