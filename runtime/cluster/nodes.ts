// The Node objects of the machines, as a kubelet would register them (pkg/kubelet/
// kubelet_node_status.go initialNode + setters): well-known labels, the control-plane role label
// and taint kubeadm adds (cmd/kubeadm/app/phases/markcontrolplane), capacity and allocatable, a
// Ready condition and the node's addresses and system info.
// Each machine's kubelet registers this object (its initialNode) and then keeps its status and
// its Lease in kube-node-lease fresh; a stopped machine's node goes Unknown through the node
// lifecycle controller.
import { rfc3339, type Node } from '../api/index.ts';
import { UNINITIALIZED_TAINT } from '../cloud/index.ts';
import type { MachinePlan } from './options.ts';

export const KUBELET_VERSION = 'v1.33.0';
const CONTROL_PLANE_ROLE = 'node-role.kubernetes.io/control-plane';

export function nodeObject(machine: MachinePlan, nowMs: number): Node {
  const s = machine.spec;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': machine.name,
    'kubernetes.io/os': 'linux',
  };
  if (machine.role === 'control-plane') {
    labels[CONTROL_PLANE_ROLE] = '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
  }
  Object.assign(labels, s.labels);
  const taints = [
    ...(machine.role === 'control-plane' && !machine.schedulable ? [{ key: CONTROL_PLANE_ROLE, effect: 'NoSchedule' as const }] : []),
    ...(s.taints ?? []),
    // kubelet --cloud-provider=external: the cloud-controller-manager initializes the node and lifts this
    ...(machine.cloudProvider === 'external' ? [{ ...UNINITIALIZED_TAINT }] : []),
  ];
  const resources = { cpu: s.cpu ?? '4', 'ephemeral-storage': '100Gi', memory: s.memory ?? '8Gi', pods: String(s.pods ?? 110) };
  const now = rfc3339(nowMs);
  const condition = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
    type, status, lastHeartbeatTime: now, lastTransitionTime: now, reason, message,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: machine.name,
      labels,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: podCIDR(machine), podCIDRs: [podCIDR(machine)], ...(taints.length > 0 ? { taints } : {}) },
    status: {
      capacity: { ...resources },
      allocatable: { ...resources },
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: machine.internalIP },
        { type: 'Hostname', address: machine.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: idFor(machine.name, 'machine'),
        systemUUID: idFor(machine.name, 'system'),
        bootID: idFor(machine.name, 'boot'),
        kernelVersion: '6.8.0-1015-generic',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://1.7.24',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      ...(s.images && s.images.length > 0 ? { images: s.images.map((i) => ({ names: [...i.names], sizeBytes: i.sizeBytes })) } : {}),
    },
  } as Node;
}

/** The machine's /24 of the pod subnet (10.244.<n>.0/24 in clusters of up to 256 machines). */
export function podCIDR(machine: MachinePlan): string {
  return machine.podCIDR;
}

/** A stable 32-hex-digit id derived from the machine name (no randomness needed). */
function idFor(name: string, salt: string): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let round = 0; round < 4; round++) {
    for (const ch of `${salt}/${name}/${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}
