// The DaemonSet controller's public pieces.
export { DaemonSetController, DAEMONSET_BURST_REPLICAS, type DaemonSetControllerOptions } from './controller.ts';
export { nodeShouldRunDaemonPod, daemonPodTolerations, type DaemonPlacement } from './eligibility.ts';
export { planManage, calculateDaemonSetStatus, nodesToDaemonPods, FailedPodBackoff, type ManagePlan } from './manage.ts';
export { planRollingUpdate, unavailableCount, surgeCount, type RollingPlan } from './rolling.ts';
export { REVISION_HASH_LABEL, TEMPLATE_GENERATION_LABEL, TEMPLATE_GENERATION_ANNOTATION, targetNodeName, isPodUpdated } from './pods.ts';
export { startDaemonSetController } from './start.ts';
