// The default admission plugins in the order kube-apiserver runs them
// (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins, restricted to the ones we implement).
import type { AdmissionPlugin } from '../types.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { limitRanger } from './limit-ranger.ts';
import { namespaceLifecycle } from './namespace-lifecycle.ts';
import { nodeRestriction } from './node-restriction.ts';
import { priorityAdmission } from './priority.ts';
import { resourceQuota } from './resource-quota.ts';
import { serviceAccountAdmission } from './service-account.ts';
import { taintNodesByCondition } from './taint-nodes-by-condition.ts';

export const DEFAULT_ADMISSION_PLUGINS: readonly AdmissionPlugin[] = [
  namespaceLifecycle,
  limitRanger,
  serviceAccountAdmission,
  nodeRestriction,
  taintNodesByCondition,
  priorityAdmission,
  defaultTolerationSeconds,
  resourceQuota,
];

export { defaultTolerationSeconds, limitRanger, namespaceLifecycle, nodeRestriction, priorityAdmission, resourceQuota, serviceAccountAdmission, taintNodesByCondition };
