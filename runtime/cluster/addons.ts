// The cluster addons kubeadm and kind install at bootstrap: CoreDNS (a Deployment behind the
// kube-dns Service), kube-proxy and the CNI agent (kindnet) as DaemonSets in kube-system, with the
// service accounts and RBAC they run as.
// mirrors cmd/kubeadm/app/phases/addons/dns/manifests.go (CoreDNS: ConfigMap, system:coredns RBAC,
// ServiceAccount, Deployment of 2, kube-dns Service at the 10th address of the service range),
// cmd/kubeadm/app/phases/addons/proxy/manifests.go (the kube-proxy DaemonSet, its
// ConfigMap, ServiceAccount and the kubeadm:node-proxier binding) and kind's
// pkg/build/nodeimage/const_cni.go (the kindnet manifest).
//
// These pods drive the node network (components.ts): kube-proxy's process runs while its pod's
// container does (a node without it keeps stale rules), and kindnet's container writes the node's
// CNI config, without which the node is NotReady and runs no pod that needs the pod network, and
// routes the other nodes' podCIDRs (network/routes.ts), without which their pods are unreachable.
import type { ClusterRole, ClusterRoleBinding, DaemonSet, Deployment, KubeObject, Service } from '../api/index.ts';
import type { RestClient } from '../client/index.ts';
import { KUBERNETES_IMAGE_TAG } from './static-pods.ts';

export const KUBE_PROXY_IMAGE = `registry.k8s.io/kube-proxy:${KUBERNETES_IMAGE_TAG}`;
export const KINDNET_IMAGE = 'docker.io/kindest/kindnetd:v20240813-c6f155d6';
/** kubeadm v1.33's CoreDNS (cmd/kubeadm/app/constants CoreDNSVersion). */
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.12.0';
/** kubeadm's DNS service IP: the 10th address of the service subnet 10.96.0.0/12 (GetDNSIP). */
export const DNS_SERVICE_IP = '10.96.0.10';
const COREDNS_LABELS = { 'k8s-app': 'kube-dns' };
const NS = 'kube-system';
/** kind's pod subnet; a plan for hundreds of nodes passes a wider one (ClusterPlan.podSubnet). */
const POD_SUBNET = '10.244.0.0/16';

const serviceAccount = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: NS } });

const kubeProxyConfig = (podSubnet: string): string => `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clusterCIDR: ${podSubnet}
mode: iptables
`;

/** kubeadm's kube-proxy DaemonSet: hostNetwork, system-node-critical, tolerates every taint. */
export function kubeProxyDaemonSet(): DaemonSet {
  const labels = { 'k8s-app': 'kube-proxy' };
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet',
    metadata: { name: 'kube-proxy', namespace: NS, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { ...labels } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          priorityClassName: 'system-node-critical',
          hostNetwork: true,
          serviceAccountName: 'kube-proxy',
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [{ operator: 'Exists' }],
          containers: [{
            name: 'kube-proxy',
            image: KUBE_PROXY_IMAGE,
            imagePullPolicy: 'IfNotPresent',
            command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
            env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            securityContext: { privileged: true },
            volumeMounts: [
              { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
              { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
              { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
            ],
          }],
          volumes: [
            { name: 'kube-proxy', configMap: { name: 'kube-proxy' } },
            { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
            { name: 'lib-modules', hostPath: { path: '/lib/modules' } },
          ],
        },
      },
    },
  } as DaemonSet;
}

/** kind's kindnet DaemonSet: hostNetwork, small fixed requests, tolerates every taint. */
export function kindnetDaemonSet(podSubnet = POD_SUBNET): DaemonSet {
  const labels = { tier: 'node', app: 'kindnet', 'k8s-app': 'kindnet' };
  const resources = { cpu: '100m', memory: '50Mi' };
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet',
    metadata: { name: 'kindnet', namespace: NS, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { app: 'kindnet' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          priorityClassName: 'system-node-critical',
          hostNetwork: true,
          serviceAccountName: 'kindnet',
          tolerations: [{ operator: 'Exists' }],
          containers: [{
            name: 'kindnet-cni',
            image: KINDNET_IMAGE,
            env: [
              { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
              { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              { name: 'POD_SUBNET', value: podSubnet },
            ],
            resources: { requests: { ...resources }, limits: { ...resources } },
            securityContext: { privileged: false, capabilities: { add: ['NET_RAW', 'NET_ADMIN'] } },
            volumeMounts: [
              { name: 'cni-cfg', mountPath: '/etc/cni/net.d' },
              { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
              { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
            ],
          }],
          volumes: [
            { name: 'cni-cfg', hostPath: { path: '/etc/cni/net.d', type: 'DirectoryOrCreate' } },
            { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
            { name: 'lib-modules', hostPath: { path: '/lib/modules' } },
          ],
        },
      },
    },
  } as DaemonSet;
}

const COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`;

/** kubeadm's CoreDNS Deployment: 2 replicas spread by preferred anti-affinity, tolerating the control plane. */
export function corednsDeployment(): Deployment {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'coredns', namespace: NS, labels: { ...COREDNS_LABELS } },
    spec: {
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      selector: { matchLabels: { ...COREDNS_LABELS } },
      template: {
        metadata: { labels: { ...COREDNS_LABELS } },
        spec: {
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: 'coredns',
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [{
                weight: 100,
                podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' },
              }],
            },
          },
          tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          containers: [{
            name: 'coredns',
            image: COREDNS_IMAGE,
            imagePullPolicy: 'IfNotPresent',
            resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
            args: ['-conf', '/etc/coredns/Corefile'],
            volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
            ports: [
              { containerPort: 53, name: 'dns', protocol: 'UDP' },
              { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
              { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
              { containerPort: 8080, name: 'liveness-probe', protocol: 'TCP' },
              { containerPort: 8181, name: 'readiness-probe', protocol: 'TCP' },
            ],
            livenessProbe: { httpGet: { path: '/health', port: 'liveness-probe', scheme: 'HTTP' }, initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5 },
            readinessProbe: { httpGet: { path: '/ready', port: 'readiness-probe', scheme: 'HTTP' } },
            securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
          }],
          dnsPolicy: 'Default',
          volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
        },
      },
    },
  } as Deployment;
}

/** kubeadm's kube-dns Service: DNS over UDP and TCP, and CoreDNS's metrics. */
export function kubeDnsService(): Service {
  return {
    apiVersion: 'v1', kind: 'Service',
    metadata: {
      name: 'kube-dns', namespace: NS,
      labels: { ...COREDNS_LABELS, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
      annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
    },
    spec: {
      clusterIP: DNS_SERVICE_IP,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
      selector: { ...COREDNS_LABELS },
    },
  } as Service;
}

/** Every object the addons need, in creation order (accounts and RBAC before the workloads). */
export function addonObjects(podSubnet = POD_SUBNET): { group: string; resource: string; namespace?: string; body: KubeObject }[] {
  const kindnetRole: ClusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kindnet' },
    rules: [
      { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch', 'patch'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
    ],
  } as ClusterRole;
  const binding = (name: string, role: string, account: string): ClusterRoleBinding => ({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name: account, namespace: NS }],
  } as ClusterRoleBinding);
  const rbac = 'rbac.authorization.k8s.io';
  const corednsRole: ClusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:coredns' },
    rules: [
      { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
    ],
  } as ClusterRole;
  return [
    // kubeadm's dns phase (createCoreDNSAddon): ConfigMap, RBAC and account, Deployment, Service
    { group: '', resource: 'configmaps', namespace: NS, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: NS }, data: { Corefile: COREFILE } } as KubeObject },
    { group: rbac, resource: 'clusterroles', body: corednsRole },
    { group: rbac, resource: 'clusterrolebindings', body: binding('system:coredns', 'system:coredns', 'coredns') },
    { group: '', resource: 'serviceaccounts', namespace: NS, body: serviceAccount('coredns') },
    { group: 'apps', resource: 'deployments', namespace: NS, body: corednsDeployment() },
    { group: '', resource: 'services', namespace: NS, body: kubeDnsService() },
    { group: '', resource: 'serviceaccounts', namespace: NS, body: serviceAccount('kube-proxy') },
    { group: '', resource: 'configmaps', namespace: NS, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-proxy', namespace: NS, labels: { app: 'kube-proxy' } }, data: { 'config.conf': kubeProxyConfig(podSubnet) } } as KubeObject },
    { group: rbac, resource: 'clusterrolebindings', body: binding('kubeadm:node-proxier', 'system:node-proxier', 'kube-proxy') },
    { group: '', resource: 'serviceaccounts', namespace: NS, body: serviceAccount('kindnet') },
    { group: rbac, resource: 'clusterroles', body: kindnetRole },
    { group: rbac, resource: 'clusterrolebindings', body: binding('kindnet', 'kindnet', 'kindnet') },
    { group: 'apps', resource: 'daemonsets', namespace: NS, body: kubeProxyDaemonSet() },
    { group: 'apps', resource: 'daemonsets', namespace: NS, body: kindnetDaemonSet(podSubnet) },
  ];
}

/** The addon DaemonSets' names, for waiting on them. */
export const ADDON_DAEMONSETS = ['kube-proxy', 'kindnet'] as const;

/**
 * Creates the addon objects one after another (409 AlreadyExists counts as done, as
 * `kubectl apply` would) and reports the first other error, or undefined.
 */
export function installAddons(client: RestClient, done: (error?: string) => void, podSubnet = POD_SUBNET): void {
  const objects = addonObjects(podSubnet);
  const next = (i: number): void => {
    const o = objects[i];
    if (!o) return done();
    client.request({ verb: 'create', group: o.group, resource: o.resource, ...(o.namespace ? { namespace: o.namespace } : {}), body: o.body }, (res) => {
      if (res.code !== 201 && res.code !== 409) {
        const body = res.body as { message?: unknown } | undefined;
        return done(`creating ${o.resource} ${o.body.metadata.name ?? ''}: ${typeof body?.message === 'string' ? body.message : res.transportError ?? `code ${res.code}`}`);
      }
      next(i + 1);
    });
  };
  next(0);
}

/** True when every addon DaemonSet reports a Ready pod on each of `nodes` nodes. */
export function addonsReady(daemonSets: readonly DaemonSet[], nodes: number): boolean {
  return ADDON_DAEMONSETS.every((name) => {
    const s = daemonSets.find((d) => d.metadata.name === name)?.status;
    return s !== undefined && s.desiredNumberScheduled === nodes && s.numberReady === nodes && s.updatedNumberScheduled === nodes;
  });
}

/** How long boot waits for the addon pods to run before handing the cluster over anyway. */
export const ADDON_BOOT_WAIT_MS = 120_000;

interface BootDeps {
  client: RestClient;
  /** Runs the kernel until done() or the simulated timeout; returns done(). */
  driveUntil: (done: () => boolean, timeoutMs: number) => boolean;
  every: (ms: number, fn: () => void) => { cancel(): void };
  record: (kind: string, actor: string, detail: string) => void;
  /** Visible nodes, each of which should get one pod of every addon. */
  nodes: number;
  /** Whether a controller manager and a scheduler run (else no pod can appear: do not wait). */
  waitForPods: boolean;
  /** The cluster's pod network, for kube-proxy's clusterCIDR and kindnet's POD_SUBNET. */
  podSubnet?: string;
}

/**
 * kubeadm's addon phase plus kind's CNI install: create the objects, then (when the built-in
 * controller manager and scheduler run) wait until each node runs a Ready pod of each addon, so
 * the cluster a caller gets back is settled. Never throws: a cluster whose nodes cannot take the
 * pods (pods: 1, say) is still handed over, with the shortfall in the trace.
 */
export function bootAddons(d: BootDeps): void {
  let installed: string | undefined | null = null;
  installAddons(d.client, (error) => {
    installed = error;
  }, d.podSubnet);
  if (!d.driveUntil(() => installed !== null, ADDON_BOOT_WAIT_MS) || installed) {
    d.record('cluster.addons', 'kubeadm', `addons not installed: ${installed ?? 'no answer'}`);
    return;
  }
  if (!d.waitForPods) return d.record('cluster.addons', 'kubeadm', 'addons installed');
  let ready = false;
  let asking = false;
  const poll = d.every(500, () => {
    if (asking) return;
    asking = true;
    d.client.request({ verb: 'list', group: 'apps', resource: 'daemonsets', namespace: NS }, (res) => {
      asking = false;
      if (res.code === 200) ready = addonsReady((res.body as { items: DaemonSet[] }).items, d.nodes);
    });
  });
  const ok = d.driveUntil(() => ready, ADDON_BOOT_WAIT_MS);
  poll.cancel();
  d.record('cluster.addons', 'kubeadm', ok ? 'addons running on every node' : 'addons installed, not yet running on every node');
}
