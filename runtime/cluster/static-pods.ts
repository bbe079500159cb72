// kubeadm's static pods: what `kubeadm init` / `join --control-plane` writes to
// /etc/kubernetes/manifests on a control-plane machine (cmd/kubeadm/app/phases/controlplane/
// manifests.go GetStaticPodSpecs, phases/etcd/local.go GetEtcdPodSpec, util/staticpod ComponentPod),
// and the kubelet's view of the containers behind them. Here the components already run as kernel
// processes (control-plane.ts, components.ts), so the "container" of static pod kube-apiserver on
// cp-1 is the process kube-apiserver-cp-1: running while the process is up, ready when it serves
// (kube-apiserver: /readyz), restarted once per time the process came back. The kubelet only sees
// this narrow view (StaticPodSource), as a real kubelet sees containerd.
import type { Container, Pod } from '../api/index.ts';
import { execInUserland, userlandOf } from '../cri/index.ts';
import type { Kernel } from '../kernel/index.ts';
import type { StaticContainerState, StaticPodManifest, StaticPodSource } from '../kubelet/index.ts';
import type { ControlPlane } from './control-plane.ts';
import { etcdContainer } from './etcd-container.ts';
import type { ClusterPlan, MachinePlan } from './options.ts';

/** The control plane's images match the API server's and kubelets' v1.33.0 (kubeadm's image tags). */
export const KUBERNETES_IMAGE_TAG = 'v1.33.0';
/** kubeadm v1.33's etcd (cmd/kubeadm/app/constants DefaultEtcdVersion 3.5.21-0), the version our members report. */
export const ETCD_IMAGE = 'registry.k8s.io/etcd:3.5.21-0';
export const SERVICE_CLUSTER_IP_RANGE = '10.96.0.0/12';
const PKI = '/etc/kubernetes/pki';

/** The API server's --secure-port: 8443 on a single-node (minikube) cluster, kubeadm's 6443 otherwise. */
export function apiServerSecurePort(plan: ClusterPlan): number {
  return plan.topology === 'single-node' ? 8443 : 6443;
}

/** The manifests kubeadm writes on machine `m` (only the components this plan runs). */
export function staticPodManifests(plan: ClusterPlan, m: MachinePlan): StaticPodManifest[] {
  const out: StaticPodManifest[] = [];
  if (m.etcdMember) out.push({ file: 'etcd.yaml', pod: etcdPod(plan, m) });
  if (m.apiServer) out.push({ file: 'kube-apiserver.yaml', pod: apiServerPod(plan, m) });
  if (plan.components.controllerManager) out.push({ file: 'kube-controller-manager.yaml', pod: controllerManagerPod(plan.podSubnet) });
  if (plan.components.scheduler) out.push({ file: 'kube-scheduler.yaml', pod: schedulerPod() });
  return out;
}

/**
 * The StaticPodSource of machine `m`: its manifests, and each one's container state read from the
 * component process `<manifest name>-<machine>`. The remembered start and exit times play the part
 * of containerd's records, which outlive a kubelet restart.
 */
export function staticPodSource(kernel: Kernel, plan: ClusterPlan, m: MachinePlan, controlPlane: ControlPlane, hostFiles: Map<string, string>): StaticPodSource {
  const manifests = staticPodManifests(plan, m);
  const etcdExec = m.etcdMember ? etcdContainer({ kernel, etcd: controlPlane.etcd, member: m.etcdMember, machine: m.name, hostFiles }) : undefined;
  /** "<manifest name>-<machine>", built once per manifest (the kubelet asks every second). */
  const processNames = new Map<string, string>();
  const seen = new Map<string, { incarnation: number; startedAtMs: number; finishedAtMs?: number; previous?: { startedAtMs: number; finishedAtMs: number } }>();
  return {
    manifests: () => manifests,
    containerState(manifestName): StaticContainerState {
      let processName = processNames.get(manifestName);
      if (processName === undefined) processNames.set(manifestName, processName = `${manifestName}-${m.name}`);
      const proc = kernel.process(processName);
      const incarnation = proc?.incarnation ?? 0;
      const running = proc?.up === true;
      let s = seen.get(processName);
      if (!s) {
        s = { incarnation, startedAtMs: 0 };
        seen.set(processName, s);
      } else if (s.incarnation !== incarnation) {
        s.incarnation = incarnation;
        if (running) {
          if (s.finishedAtMs !== undefined) s.previous = { startedAtMs: s.startedAtMs, finishedAtMs: s.finishedAtMs };
          s.startedAtMs = kernel.now();
          delete s.finishedAtMs;
        } else {
          s.finishedAtMs = kernel.now();
        }
      }
      const replica = controlPlane.replicas.find((r) => r.name === processName);
      // incarnations go 1 (first start), 2 (crash), 3 (start again)...: each odd one after the first is a restart
      const restartCount = Math.max(0, Math.floor((incarnation - 1) / 2));
      const state: StaticContainerState = {
        running,
        ready: running && (replica ? replica.current()?.isReady === true : true),
        restartCount,
        startedAtMs: s.startedAtMs,
      };
      if (s.finishedAtMs !== undefined && !running) state.finishedAtMs = s.finishedAtMs;
      if (running && s.previous && restartCount > 0) state.previous = s.previous;
      return state;
    },
    exec(manifestName, argv, stdin, done) {
      if (manifestName === 'etcd' && etcdExec) return etcdExec(argv, stdin, done);
      // the other control-plane images are distroless
      const image = manifests.find((x) => x.pod.metadata.name === manifestName)?.pod.spec.containers[0]?.image ?? '';
      done(execInUserland(userlandOf(image), argv, { hostname: m.name, env: [], files: {}, ...(stdin !== undefined ? { stdin } : {}) }));
    },
  };
}

/** A hostPath volume and where the container mounts it (kubeadm's staticpod NewVolume / NewVolumeMount). */
interface HostMount {
  name: string;
  path: string;
  type: 'DirectoryOrCreate' | 'FileOrCreate';
  readOnly: boolean;
}

const hostMount = (name: string, path: string, readOnly = true, type: HostMount['type'] = 'DirectoryOrCreate'): HostMount => ({ name, path, type, readOnly });

/** The CA bundles every component that dials TLS mounts (on a Debian-family host). */
const CA_CERT_MOUNTS = [
  hostMount('ca-certs', '/etc/ssl/certs'), hostMount('etc-ca-certificates', '/etc/ca-certificates'),
  hostMount('usr-local-share-ca-certificates', '/usr/local/share/ca-certificates'), hostMount('usr-share-ca-certificates', '/usr/share/ca-certificates'),
];

/** kubeadm lists volumes sorted by name (VolumeMapToSlice) and, except for etcd, the mounts too. */
const byName = (mounts: HostMount[]): HostMount[] => [...mounts].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

function withMounts(container: Container, mounts: HostMount[]): Container {
  return { ...container, volumeMounts: mounts.map((m) => ({ mountPath: m.path, name: m.name, ...(m.readOnly ? { readOnly: true } : {}) })) };
}

function componentPod(name: string, container: Container, annotations: Record<string, string> = {}, mounts: HostMount[] = []): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name, namespace: 'kube-system',
      labels: { component: name, tier: 'control-plane' },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: {
      containers: [{ imagePullPolicy: 'IfNotPresent', ...container, name }],
      hostNetwork: true,
      priority: 2000001000,
      priorityClassName: 'system-node-critical',
      securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
      ...(mounts.length > 0 ? { volumes: byName(mounts).map((m) => ({ hostPath: { path: m.path, type: m.type }, name: m.name })) } : {}),
    },
  };
}

const httpProbe = (host: string, path: string, port: number, scheme: 'HTTP' | 'HTTPS', o: { failureThreshold: number; initialDelaySeconds?: number; periodSeconds: number }) => ({
  httpGet: { host, path, port, scheme }, failureThreshold: o.failureThreshold, periodSeconds: o.periodSeconds, timeoutSeconds: 15,
  ...(o.initialDelaySeconds !== undefined ? { initialDelaySeconds: o.initialDelaySeconds } : {}),
});

function etcdPod(plan: ClusterPlan, m: MachinePlan): Pod {
  const ip = m.internalIP;
  const cluster = plan.machines.filter((x) => x.etcdMember).map((x) => `${x.name}=https://${x.internalIP}:2380`).join(',');
  // GetEtcdPodSpec lists the data directory's mount first
  const mounts = [hostMount('etcd-data', '/var/lib/etcd', false), hostMount('etcd-certs', `${PKI}/etcd`, false)];
  return componentPod('etcd', withMounts({
    name: 'etcd',
    image: ETCD_IMAGE,
    command: [
      'etcd', `--advertise-client-urls=https://${ip}:2379`, `--cert-file=${PKI}/etcd/server.crt`, '--client-cert-auth=true',
      '--data-dir=/var/lib/etcd', '--experimental-initial-corrupt-check=true', '--experimental-watch-progress-notify-interval=5s',
      `--initial-advertise-peer-urls=https://${ip}:2380`, `--initial-cluster=${cluster}`, `--key-file=${PKI}/etcd/server.key`,
      `--listen-client-urls=https://127.0.0.1:2379,https://${ip}:2379`, '--listen-metrics-urls=http://127.0.0.1:2381',
      `--listen-peer-urls=https://${ip}:2380`, `--name=${m.name}`, `--peer-cert-file=${PKI}/etcd/peer.crt`,
      '--peer-client-cert-auth=true', `--peer-key-file=${PKI}/etcd/peer.key`, `--peer-trusted-ca-file=${PKI}/etcd/ca.crt`,
      '--snapshot-count=10000', `--trusted-ca-file=${PKI}/etcd/ca.crt`,
    ],
    livenessProbe: httpProbe('127.0.0.1', '/livez', 2381, 'HTTP', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10 }),
    readinessProbe: httpProbe('127.0.0.1', '/readyz', 2381, 'HTTP', { failureThreshold: 3, periodSeconds: 1 }),
    startupProbe: httpProbe('127.0.0.1', '/readyz', 2381, 'HTTP', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10 }),
    resources: { requests: { cpu: '100m', memory: '100Mi' } },
  }, mounts), { 'kubeadm.kubernetes.io/etcd.advertise-client-urls': `https://${ip}:2379` }, mounts);
}

function apiServerPod(plan: ClusterPlan, m: MachinePlan): Pod {
  const ip = m.internalIP;
  const port = apiServerSecurePort(plan);
  const mounts = byName([...CA_CERT_MOUNTS, hostMount('k8s-certs', PKI)]);
  return componentPod('kube-apiserver', withMounts({
    name: 'kube-apiserver',
    image: `registry.k8s.io/kube-apiserver:${KUBERNETES_IMAGE_TAG}`,
    command: [
      'kube-apiserver', `--advertise-address=${ip}`, '--allow-privileged=true', '--authorization-mode=Node,RBAC',
      `--client-ca-file=${PKI}/ca.crt`, '--enable-admission-plugins=NodeRestriction', '--enable-bootstrap-token-auth=true',
      `--etcd-cafile=${PKI}/etcd/ca.crt`, `--etcd-certfile=${PKI}/apiserver-etcd-client.crt`, `--etcd-keyfile=${PKI}/apiserver-etcd-client.key`,
      '--etcd-servers=https://127.0.0.1:2379', `--kubelet-client-certificate=${PKI}/apiserver-kubelet-client.crt`,
      `--kubelet-client-key=${PKI}/apiserver-kubelet-client.key`, '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
      `--secure-port=${port}`, '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${PKI}/sa.pub`, `--service-account-signing-key-file=${PKI}/sa.key`,
      `--service-cluster-ip-range=${SERVICE_CLUSTER_IP_RANGE}`, `--tls-cert-file=${PKI}/apiserver.crt`, `--tls-private-key-file=${PKI}/apiserver.key`,
    ],
    livenessProbe: httpProbe(ip, '/livez', port, 'HTTPS', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10 }),
    readinessProbe: httpProbe(ip, '/readyz', port, 'HTTPS', { failureThreshold: 3, periodSeconds: 1 }),
    startupProbe: httpProbe(ip, '/livez', port, 'HTTPS', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10 }),
    resources: { requests: { cpu: '250m' } },
  }, mounts), { 'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': `${ip}:${port}` }, mounts);
}

function controllerManagerPod(podSubnet: string): Pod {
  const conf = '/etc/kubernetes/controller-manager.conf';
  const mounts = byName([
    ...CA_CERT_MOUNTS, hostMount('k8s-certs', PKI), hostMount('kubeconfig', conf, true, 'FileOrCreate'),
    hostMount('flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', false),
  ]);
  return componentPod('kube-controller-manager', withMounts({
    name: 'kube-controller-manager',
    image: `registry.k8s.io/kube-controller-manager:${KUBERNETES_IMAGE_TAG}`,
    command: [
      'kube-controller-manager', '--allocate-node-cidrs=true', `--authentication-kubeconfig=${conf}`, `--authorization-kubeconfig=${conf}`,
      '--bind-address=127.0.0.1', `--client-ca-file=${PKI}/ca.crt`, `--cluster-cidr=${podSubnet}`, '--cluster-name=kubernetes',
      `--cluster-signing-cert-file=${PKI}/ca.crt`, `--cluster-signing-key-file=${PKI}/ca.key`, '--controllers=*,bootstrapsigner,tokencleaner',
      `--kubeconfig=${conf}`, '--leader-elect=true', `--requestheader-client-ca-file=${PKI}/front-proxy-ca.crt`,
      `--root-ca-file=${PKI}/ca.crt`, `--service-account-private-key-file=${PKI}/sa.key`,
      `--service-cluster-ip-range=${SERVICE_CLUSTER_IP_RANGE}`, '--use-service-account-credentials=true',
    ],
    livenessProbe: httpProbe('127.0.0.1', '/healthz', 10257, 'HTTPS', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10 }),
    startupProbe: httpProbe('127.0.0.1', '/healthz', 10257, 'HTTPS', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10 }),
    resources: { requests: { cpu: '200m' } },
  }, mounts), {}, mounts);
}

function schedulerPod(): Pod {
  const conf = '/etc/kubernetes/scheduler.conf';
  const mounts = [hostMount('kubeconfig', conf, true, 'FileOrCreate')];
  return componentPod('kube-scheduler', withMounts({
    name: 'kube-scheduler',
    image: `registry.k8s.io/kube-scheduler:${KUBERNETES_IMAGE_TAG}`,
    command: [
      'kube-scheduler', `--authentication-kubeconfig=${conf}`, `--authorization-kubeconfig=${conf}`, '--bind-address=127.0.0.1',
      `--kubeconfig=${conf}`, '--leader-elect=true',
    ],
    livenessProbe: httpProbe('127.0.0.1', '/healthz', 10259, 'HTTPS', { failureThreshold: 8, initialDelaySeconds: 10, periodSeconds: 10 }),
    startupProbe: httpProbe('127.0.0.1', '/healthz', 10259, 'HTTPS', { failureThreshold: 24, initialDelaySeconds: 10, periodSeconds: 10 }),
    resources: { requests: { cpu: '100m' } },
  }, mounts), {}, mounts);
}
