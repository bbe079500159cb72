// Names the cloud controllers share with the rest of Kubernetes.
// mirrors staging/src/k8s.io/cloud-provider/api/well_known_taints.go and
// staging/src/k8s.io/api/core/v1/well_known_labels.go
import type { Taint } from '../api/index.ts';

/** A kubelet started with --cloud-provider=external registers its Node with this taint. */
export const TAINT_EXTERNAL_CLOUD_PROVIDER = 'node.cloudprovider.kubernetes.io/uninitialized';
/** The CCM's node lifecycle controller marks a NotReady node whose instance is powered off. */
export const TAINT_NODE_SHUTDOWN = 'node.cloudprovider.kubernetes.io/shutdown';

export const UNINITIALIZED_TAINT: Taint = { key: TAINT_EXTERNAL_CLOUD_PROVIDER, value: 'true', effect: 'NoSchedule' };
export const SHUTDOWN_TAINT: Taint = { key: TAINT_NODE_SHUTDOWN, effect: 'NoSchedule' };

export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
export const LABEL_INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
export const LABEL_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
export const LABEL_BETA_INSTANCE_TYPE = 'beta.kubernetes.io/instance-type';
/** Nodes with this label are left out of load balancers' backends. */
export const LABEL_EXCLUDE_FROM_LOAD_BALANCERS = 'node.kubernetes.io/exclude-from-external-load-balancers';

/** The Service finalizer the service controller holds while a load balancer exists. */
export const LOAD_BALANCER_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

/** Taint.MatchTaint: same key and effect (the value does not matter). */
export const matchesTaint = (t: Taint, want: Taint): boolean => t.key === want.key && t.effect === want.effect;
