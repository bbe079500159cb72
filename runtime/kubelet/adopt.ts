// What a kubelet that starts again finds in the container runtime. The containers outlive the
// kubelet process: on start it lists the sandboxes and containers (CRI ListPodSandbox /
// ListContainers, as the PLEG's first relist and kuberuntime's computePodActions do) and takes
// over the ones of each pod it is given, so a restarted kubelet leaves running containers running
// (same ids, restart counts unchanged) instead of starting a second copy. A rebooted machine has an
// empty runtime: its pods get new sandboxes and containers, and the count of each container that ran
// before goes up by one, as the kubelet reports a container started again after a reboot.
// mirrors pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions: a ready sandbox is
// kept, a running container is left alone) and kuberuntime_container.go getPodContainerStatuses
// (the restart count a container carries; ours is read back from the pod's last reported status,
// which is what containerd's container annotations hold upstream).
import { parseRFC3339, type Pod } from '../api/index.ts';
import type { ContainerInfo, ContainerRuntime } from '../cri/index.ts';
import type { ContainerRecord } from './status.ts';

export interface AdoptedPod {
  sandboxId: string;
  podIP?: string;
  startTimeMs?: number;
  containers: Map<string, ContainerRecord>;
}

/** The running sandbox of `pod` and its containers, or undefined when the runtime has none. */
export function adoptFromRuntime(cri: Pick<ContainerRuntime, 'listPodSandboxes' | 'listContainers'>, pod: Pod): AdoptedPod | undefined {
  const uid = pod.metadata.uid ?? '';
  const sandbox = cri.listPodSandboxes().find((s) => s.podUid === uid && s.ready);
  if (!sandbox) return undefined;
  const byName = new Map<string, ContainerInfo[]>();
  for (const info of cri.listContainers(sandbox.id)) byName.set(info.name, [...(byName.get(info.name) ?? []), info]);
  const containers = new Map<string, ContainerRecord>();
  for (const c of pod.spec.containers) {
    const instances = (byName.get(c.name) ?? []).sort((a, b) => a.createdAtMs - b.createdAtMs);
    const reported = pod.status?.containerStatuses?.find((s) => s.name === c.name);
    const current = instances.at(-1);
    const previous = instances.at(-2);
    containers.set(c.name, {
      ...(current ? { current } : {}),
      ...(previous ? { previous } : {}),
      restartCount: reported?.restartCount ?? 0,
      // probes start over; what the pod last reported holds until they have a verdict
      ready: !c.readinessProbe || reported?.ready === true,
      started: !c.startupProbe || reported?.started === true,
    });
  }
  const startTimeMs = pod.status?.startTime ? parseRFC3339(pod.status.startTime) : undefined;
  return {
    sandboxId: sandbox.id,
    ...(pod.status?.podIP ? { podIP: pod.status.podIP } : {}),
    ...(startTimeMs !== undefined ? { startTimeMs } : {}),
    containers,
  };
}

/**
 * A new sandbox for a pod that ran on this node before (its status names containers that ran): each
 * such container's next start is a restart, counted on from the reported count.
 */
export function restartCountsAfterReboot(pod: Pod): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of pod.status?.containerStatuses ?? []) {
    if (s.containerID) counts.set(s.name, s.restartCount + 1);
  }
  return counts;
}
