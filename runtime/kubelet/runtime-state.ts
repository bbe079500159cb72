// What the kubelet makes of its container runtime's status: the network error that keeps the node
// NotReady and pods that need the pod network from starting.
// mirrors pkg/kubelet/kubelet.go updateRuntimeUp (a NetworkReady condition that is false becomes
// "container runtime network not ready: <condition>", with kubecontainer.RuntimeCondition's String
// format), runtime_state.go networkErrors, and SyncPod's NetworkNotReadyErrorMsg.
import type { RuntimeCondition } from '../cri/index.ts';

/** The prefix of SyncPod's error and of the NetworkNotReady event. */
export const NETWORK_NOT_READY_ERROR_MSG = 'network is not ready';
/** pod_workers.go backOffOnTransientErrorPeriod: a pod waiting for the network is retried every second. */
export const NETWORK_NOT_READY_RETRY_MS = 1000;
/** kubelet.go fastStatusUpdateOnce: node status every 100 ms after start until the node is ready. */
export const FAST_STATUS_UPDATE_MS = 100;

/** The runtime's network error, or undefined when its NetworkReady condition is true. */
export function runtimeNetworkError(runtime: { status(): RuntimeCondition[] }): string | undefined {
  const network = runtime.status().find((c) => c.type === 'NetworkReady');
  if (!network) return 'container runtime network not ready: NetworkReady condition is missing';
  if (network.status) return undefined;
  return `container runtime network not ready: NetworkReady=false reason:${network.reason} message:${network.message}`;
}
