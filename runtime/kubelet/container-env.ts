// What the kubelet sets up for a container's processes (its main process and anything exec'd into
// it): the hostname, the environment (PATH, HOSTNAME, the container's variables, HOME), the files its
// volumes hold (volumes.ts) and those the kubelet mounts itself: /etc/hosts (kubelet_pods.go managedHostsFileContent), /etc/resolv.conf (dns.go
// for the pod's dnsPolicy) and /etc/hostname, and the pod's network namespace.
import type { Pod, Service } from '../api/index.ts';
import type { ExecEnvironment, PodNetworkAccess } from '../cri/index.ts';
import { serviceEnvVars } from './service-env.ts';

export interface ContainerEnvironmentConfig {
  /** KubeletConfiguration clusterDNS and clusterDomain. */
  clusterDNS: string;
  clusterDomain: string;
  /** The node's own resolv.conf (what dnsPolicy Default and host-network pods get). */
  hostResolvConf: string;
  /** The network namespace of the pod with this IP (the CNI plugin's). */
  podNetwork?(podIP: string): PodNetworkAccess;
  /** The kubelet's Service informer's view (for the service environment variables). */
  services?(): readonly Service[];
}

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * What the container's process sees: PATH and HOSTNAME (the image and the runtime), the Services'
 * variables, the container's own variables (which win: env and envFrom as env-sources.ts resolved
 * them when it was created, or just the literal values), HOME. The kubelet hands the runtime its variables from a Go map, so a real container lists them
 * in no particular order; here they come in this order.
 */
export function containerEnvironment(
  d: ContainerEnvironmentConfig, pod: Pod, container: string, podIP: string | undefined,
  resolved?: readonly (readonly [string, string])[], volumeFiles: Readonly<Record<string, string>> = {},
): ExecEnvironment & { files: Record<string, string> } {
  const name = pod.metadata.name ?? '';
  const hostname = (pod.spec.hostname ?? name).slice(0, 63);
  const spec = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === container);
  // the container's variables as env-sources.ts resolved them, else its literal values
  const own = new Map<string, string>(resolved ?? []);
  if (!resolved) for (const e of spec?.env ?? []) if (e.value !== undefined) own.set(e.name, e.value);
  const services = serviceEnvVars(d.services?.() ?? [], pod.metadata.namespace ?? 'default', pod.spec.enableServiceLinks !== false).filter(([k]) => !own.has(k));
  const env: [string, string][] = [['PATH', PATH], ['HOSTNAME', hostname], ...services, ...own];
  if (!env.some(([k]) => k === 'HOME')) env.push(['HOME', '/root']);
  const network = podIP && !pod.spec.hostNetwork ? d.podNetwork?.(podIP) : undefined;
  // a directory volume mount: every file in it is known (a subPath mount is one file or subtree)
  const mountDirs = (spec?.volumeMounts ?? []).filter((m) => !m.subPath).map((m) => m.mountPath.replace(/\/+$/, ''));
  return {
    hostname,
    env,
    ...(network ? { network } : {}),
    ...(mountDirs.length > 0 ? { mountDirs } : {}),
    files: {
      ...volumeFiles,
      '/etc/hostname': `${hostname}\n`,
      '/etc/hosts': hostsFile(pod, hostname, podIP, d.clusterDomain),
      '/etc/resolv.conf': resolvConf(d, pod),
    },
  };
}

/**
 * managedHostsFileContent: the header, localhost lines, the pod's IP with its (FQDN and) hostname.
 * The IP is the sandbox's (known before the status carrying it is written).
 */
function hostsFile(pod: Pod, hostname: string, podIP: string | undefined, clusterDomain: string): string {
  if (pod.spec.hostNetwork) return '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';
  let text = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  const ips = podIP ? [podIP] : [];
  const subdomain = pod.spec.subdomain;
  const domain = subdomain ? `${subdomain}.${pod.metadata.namespace ?? 'default'}.svc.${clusterDomain}` : '';
  for (const ip of ips) text += domain ? `${ip}\t${hostname}.${domain}\t${hostname}\n` : `${ip}\t${hostname}\n`;
  return text;
}

/** dns.go GetPodDNS: ClusterFirst pods ask the cluster DNS with the namespace's search list; others get the node's file. */
function resolvConf(d: ContainerEnvironmentConfig, pod: Pod): string {
  const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
  const clusterFirst = policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !pod.spec.hostNetwork);
  // None takes everything from spec.dnsConfig, which this simulation's Pod type does not carry
  if (policy === 'None') return '';
  if (!clusterFirst) return d.hostResolvConf;
  const ns = pod.metadata.namespace ?? 'default';
  const domain = d.clusterDomain;
  return `search ${ns}.svc.${domain} svc.${domain} ${domain}\nnameserver ${d.clusterDNS}\noptions ndots:5\n`;
}
