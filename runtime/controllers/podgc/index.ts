export { PodGCController, missingNodes, terminatedPodsToDelete, GC_CHECK_PERIOD_MS, QUARANTINE_MS, TERMINATED_POD_GC_THRESHOLD, type PodGCControllerOptions } from './controller.ts';
export { startPodGCController } from './start.ts';
