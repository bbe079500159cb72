/**
 * runtime/kubelet: the node agent. `startKubelet(kernel, options)` spawns kubelet-<node>: Node
 * registration, the node Lease renewed every 10 s, node status, pod workers (admission, sandbox +
 * CNI, image pull, create, start, restart policy with CrashLoopBackOff, probes, graceful
 * termination) and pod status through pods/status, recording the usual kubelet events.
 */
export { startKubelet, type KubeletOptions } from './kubelet.ts';
export { RestartBackoff, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS } from './backoff.ts';
export { formatPod } from './format.ts';
export { admitPod, podRequest, type AdmitResult } from './admission.ts';
export { computePodStatus, containerStatusOf, podPhase, podConditions, qosClass, type ContainerRecord, type PodRuntimeView } from './status.ts';
export { HEALTHY_NODE_CONDITIONS, NODE_STATUS_UPDATE_FREQUENCY_MS, kubeletConditions } from './node-agent.ts';
export { LEASE_DURATION_SECONDS, LEASE_RENEW_INTERVAL_MS } from './node-lease.ts';
export { shouldRestart } from './pod-workers.ts';
export { probeFailureOutput } from './probes.ts';
export {
  CONFIG_HASH_ANNOTATION, CONFIG_MIRROR_ANNOTATION, CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION, crashLoopBackoffMs, isMirrorPod,
  mirrorPodOf, staticPodFromManifest, staticPodStatus, type StaticContainerState, type StaticPodManifest, type StaticPodSource,
} from './static-pods.ts';
export { PLEG_RELIST_PERIOD_MS } from './mirror-pods.ts';
