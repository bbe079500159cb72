// The cloud of a managed cluster: one simulated cloud (runtime/cloud) with an instance per worker
// machine, and a cloud-controller-manager on every hidden control-plane machine (one leader
// through the Lease kube-system/cloud-controller-manager), as EKS/GKE/AKS run it beside the API
// server. kubeadm-style clusters (single-node, ha) have no cloud: their kubelets register plain
// Nodes and LoadBalancer Services stay <pending>, as on bare machines without MetalLB.
import type { Node } from '../api/index.ts';
import {
  CLOUD_CONTROLLER_MANAGER_CLIENT_SUFFIXES, CLOUD_CONTROLLER_MANAGER_USER, SimulatedCloud, isUninitialized, startCloudControllerManager,
} from '../cloud/index.ts';
import type { RestClient } from '../client/index.ts';
import type { Kernel } from '../kernel/index.ts';
import { processClient, processComponent } from './components.ts';
import type { Component } from './control-plane.ts';
import type { ClusterPlan } from './options.ts';

/** The cloud of a managed plan (undefined for single-node and ha); deleted instances stop their machine. */
export function createClusterCloud(kernel: Kernel, plan: ClusterPlan, stopMachine: (name: string) => void): SimulatedCloud | undefined {
  if (plan.topology !== 'managed') return undefined;
  const cloud = new SimulatedCloud({
    clock: kernel, rng: kernel.forkRng('cloud'),
    // a machine is powered on while its kubelet runs (faults.stopNode stops every process on it)
    isRunning: (name) => kernel.process(`kubelet-${name}`)?.up === true,
    onInstanceDeleted: stopMachine,
    record: (kind, detail) => kernel.record(kind, 'cloud', detail),
  });
  for (const m of plan.machines.filter((x) => x.role === 'worker')) {
    cloud.addInstance({ name: m.name, cpu: m.spec.cpu ?? '4', memory: m.spec.memory ?? '8Gi', internalIP: m.internalIP });
  }
  return cloud;
}

/** A cloud-controller-manager per control-plane machine, each a component faults can stop or cut off. */
export function startCloudControllerManagers(kernel: Kernel, plan: ClusterPlan, cloud: SimulatedCloud, components: Map<string, Component>): void {
  if (!plan.components.cloudControllerManager) return;
  const clientOf = processClient(kernel, plan);
  for (const m of plan.machines.filter((x) => x.role === 'control-plane')) {
    const name = `cloud-controller-manager-${m.name}`;
    const restClient = clientOf(name, { clientCert: { commonName: CLOUD_CONTROLLER_MANAGER_USER } }, undefined, plan.clientRateLimits['cloud-controller-manager']);
    startCloudControllerManager(kernel, { name, restClient, cloud: cloud.api() });
    components.set(name, processComponent(kernel, name, m.name, 'cloud-controller-manager', {
      extraEndpoints: () => CLOUD_CONTROLLER_MANAGER_CLIENT_SUFFIXES.map((s) => `${restClient.options.name}.${kernel.process(name)?.incarnation ?? 0}.${s}`),
    }));
  }
}

/** faults.startNode cannot power on a machine whose instance was deleted. */
export function assertInstanceExists(cloud: SimulatedCloud | undefined, plan: ClusterPlan, name: string): void {
  const worker = plan.machines.some((m) => m.name === name && m.role === 'worker');
  if (cloud && worker && !cloud.instances().some((i) => i.name === name)) {
    throw new Error(`instance "${name}" was deleted from the cloud and cannot be started again`);
  }
}

/** The cloud of a cluster, or a learner-facing error for a topology without one. */
export function requireCloud(cloud: SimulatedCloud | undefined, plan: ClusterPlan): SimulatedCloud {
  if (!cloud) throw new Error(`a ${plan.topology} cluster has no cloud provider (its machines are not cloud instances): use topology "managed"`);
  return cloud;
}

/**
 * Waits until no Node carries the uninitialized taint (a managed node pool is ready when its nodes
 * are initialized); returns false after timeoutMs. No-op without a cloud-controller-manager.
 */
export function waitForCloudInitialization(
  plan: ClusterPlan, client: RestClient, driveUntil: (done: () => boolean, ms: number) => boolean, kernel: Kernel, timeoutMs: number,
): boolean {
  if (!plan.components.cloudControllerManager) return true;
  let initialized = false;
  let asking = false;
  const poll = kernel.every(500, () => {
    if (asking) return;
    asking = true;
    client.request({ verb: 'list', group: '', resource: 'nodes' }, (res) => {
      asking = false;
      if (res.code === 200) initialized = !(res.body as { items: Node[] }).items.some(isUninitialized);
    });
  });
  const ok = driveUntil(() => initialized, timeoutMs);
  poll.cancel();
  client.close();
  return ok;
}
