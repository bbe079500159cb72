/**
 * runtime/kubelet: the node agent. `startKubelet(kernel, options)` spawns kubelet-<node>: Node
 * registration, the node Lease renewed every 10 s, node status, pod workers (admission, sandbox +
 * CNI, image pull, create, start, restart policy with CrashLoopBackOff, probes, graceful
 * termination) and pod status through pods/status, recording the usual kubelet events.
 */
import type { ContainerStatus, Pod, PodPhase } from '../api/index.ts';
import type { ContainerHistory, RestartDecision } from './backoff.ts';

export { startKubelet, type KubeletOptions } from './kubelet.ts';
export {
  RestartBackoff, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS, BACKOFF_RESET_MS, newCrashLoopBackoff, restartDecision, shouldRestartAfter,
  type ContainerHistory, type ContainerRun, type RestartDecision,
} from './backoff.ts';
export { formatPod } from './format.ts';
export { admitPod, podRequest, type AdmitResult } from './admission.ts';
export { computePodStatus, containerStatusOf, getPhase, podPhase, podConditions, qosClass, type ContainerRecord, type PodRuntimeView } from './status.ts';
export { HEALTHY_NODE_CONDITIONS, NODE_STATUS_UPDATE_FREQUENCY_MS, kubeletConditions } from './node-agent.ts';
export { LEASE_DURATION_SECONDS, LEASE_RENEW_INTERVAL_MS } from './node-lease.ts';
export { shouldRestart } from './pod-workers.ts';
export { probeFailureOutput } from './probes.ts';
export {
  CONFIG_HASH_ANNOTATION, CONFIG_MIRROR_ANNOTATION, CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION, crashLoopBackoffMs, isMirrorPod,
  mirrorPodOf, staticPodFromManifest, staticPodStatus, type StaticContainerState, type StaticPodManifest, type StaticPodSource,
} from './static-pods.ts';
export { PLEG_RELIST_PERIOD_MS } from './mirror-pods.ts';

/**
 * The kubelet's restart logic, as the kubelet-restarts lab reimplements it: `getPhase` (the pod's
 * phase from its init and app container statuses, kubelet_pods.go) and `restartDecision` (the
 * restart policy and the CrashLoopBackOff schedule over a container's runs, kuberuntime_manager.go
 * doBackOff on flowcontrol.Backoff). The runtime's own are `getPhase` and `restartDecision` above.
 */
export interface KubeletRestartLogic {
  getPhase(pod: Pod, statuses: readonly ContainerStatus[], podIsTerminal: boolean): PodPhase;
  restartDecision(history: ContainerHistory, nowMs: number): RestartDecision;
}
