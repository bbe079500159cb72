// Core group ("", version v1) kinds: Pod, Node, Namespace, Service, ConfigMap, ServiceAccount, Event.
// mirrors staging/src/k8s.io/api/core/v1/types.go (field names and JSON shapes as sent on the wire).
import type {
  IntOrString,
  KubeObject,
  LabelSelector,
  MicroTime,
  ObjectMeta,
  Time,
} from './meta.ts';

/** Resource quantities as strings ("100m", "128Mi"); parse them with runtime/api Quantity. */
export type ResourceList = Record<string, string>;

export type Protocol = 'TCP' | 'UDP' | 'SCTP';
export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';
export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type ConditionStatus = 'True' | 'False' | 'Unknown';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name?: string;
}

// ---------------------------------------------------------------- containers

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: Protocol;
  hostIP?: string;
}

export interface EnvVarSource {
  fieldRef?: { apiVersion?: string; fieldPath: string };
  resourceFieldRef?: { containerName?: string; resource: string; divisor?: string };
  configMapKeyRef?: { name?: string; key: string; optional?: boolean };
  secretKeyRef?: { name?: string; key: string; optional?: boolean };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
}

export interface ExecAction {
  command?: string[];
}

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: { name: string; value: string }[];
}

export interface TCPSocketAction {
  port: IntOrString;
  host?: string;
}

export interface GRPCAction {
  port: number;
  service?: string;
}

export interface Probe {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  grpc?: GRPCAction;
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface VolumeMount {
  name: string;
  readOnly?: boolean;
  mountPath: string;
  subPath?: string;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  terminationMessagePath?: string;
  terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError';
  imagePullPolicy?: PullPolicy;
  securityContext?: Record<string, unknown>;
  stdin?: boolean;
  tty?: boolean;
}

export interface Volume {
  name: string;
  configMap?: {
    name?: string;
    defaultMode?: number;
    optional?: boolean;
    items?: { key: string; path: string }[];
  };
  secret?: { secretName?: string; defaultMode?: number; optional?: boolean; items?: { key: string; path: string }[] };
  emptyDir?: { medium?: string; sizeLimit?: string };
  hostPath?: { path: string; type?: string };
  projected?: { sources: Record<string, unknown>[]; defaultMode?: number };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
}

// ---------------------------------------------------------------- scheduling constraints

export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface NodeSelectorRequirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

/** Terms are ORed; requirements inside one term are ANDed. */
export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export type PodAntiAffinity = PodAffinity;

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAntiAffinity;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
}

// ---------------------------------------------------------------- Pod

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: 'ClusterFirstWithHostNet' | 'ClusterFirst' | 'Default' | 'None';
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  /** Deprecated alias of serviceAccountName, still defaulted from it by the API server. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: Record<string, unknown>;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  enableServiceLinks?: boolean;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  overhead?: ResourceList;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type PodConditionType =
  | 'PodScheduled'
  | 'PodReadyToStartContainers'
  | 'Initialized'
  | 'ContainersReady'
  | 'Ready'
  | 'DisruptionTarget';

export interface PodCondition {
  type: PodConditionType | string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastProbeTime?: Time | null;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt?: Time;
}
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: Time;
  finishedAt?: Time;
  containerID?: string;
}

/** Exactly one member is set. */
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export interface PodIP {
  ip: string;
}

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

export interface PodStatus {
  observedGeneration?: number;
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: PodIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: Time;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: PodQOSClass;
}

export interface Pod extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Pod';
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

// ---------------------------------------------------------------- Node

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: Time;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
}

export type NodeConditionType =
  'Ready' | 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' | 'NetworkUnavailable';

export interface NodeCondition {
  type: NodeConditionType | string;
  status: ConditionStatus;
  lastHeartbeatTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';
  address: string;
}

export interface ContainerImage {
  names: string[];
  sizeBytes: number;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion?: string;
  operatingSystem: string;
  architecture: string;
}

export interface NodeDaemonEndpoints {
  kubeletEndpoint?: { Port: number };
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: NodeDaemonEndpoints;
  nodeInfo?: NodeSystemInfo;
  images?: ContainerImage[];
}

export interface Node extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Node';
  spec?: NodeSpec;
  status?: NodeStatus;
}

// ---------------------------------------------------------------- Namespace

export interface Namespace extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Namespace';
  spec?: { finalizers?: string[] };
  status?: {
    phase?: 'Active' | 'Terminating';
    conditions?: {
      type: string;
      status: ConditionStatus;
      lastTransitionTime?: Time;
      reason?: string;
      message?: string;
    }[];
  };
}

// ---------------------------------------------------------------- Service

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';

export interface ServicePort {
  name?: string;
  protocol?: Protocol;
  appProtocol?: string;
  port: number;
  targetPort?: IntOrString;
  nodePort?: number;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: ServiceType;
  externalIPs?: string[];
  sessionAffinity?: 'ClientIP' | 'None';
  loadBalancerIP?: string;
  externalName?: string;
  externalTrafficPolicy?: 'Cluster' | 'Local';
  /** Allocated for LoadBalancer Services with externalTrafficPolicy Local: load balancers probe it. */
  healthCheckNodePort?: number;
  internalTrafficPolicy?: 'Cluster' | 'Local';
  ipFamilies?: ('IPv4' | 'IPv6')[];
  ipFamilyPolicy?: 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';
  allocateLoadBalancerNodePorts?: boolean;
  publishNotReadyAddresses?: boolean;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: { port: number; protocol: Protocol; error?: string }[];
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: LoadBalancerIngress[] };
}

export interface Service extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Service';
  spec: ServiceSpec;
  status?: ServiceStatus;
}

/** core/v1 ComponentCondition: type Healthy, True or False, with the check's message or error. */
export interface ComponentCondition {
  type: 'Healthy';
  status: 'True' | 'False' | 'Unknown';
  message?: string;
  error?: string;
}

/** core/v1 ComponentStatus (deprecated since v1.19): one control-plane component's health. */
export interface ComponentStatus extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ComponentStatus';
  conditions?: ComponentCondition[];
}

/** core/v1 EndpointAddress (staging/src/k8s.io/api/core/v1/types.go). */
export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

/** core/v1 EndpointPort: unlike discovery's, port is required and name may be empty. */
export interface CoreEndpointPort {
  name?: string;
  port: number;
  protocol?: Protocol;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: CoreEndpointPort[];
}

/** core/v1 Endpoints: deprecated in v1.33 for EndpointSlice, still served and maintained. */
export interface Endpoints extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Endpoints';
  subsets?: EndpointSubset[];
}

// ---------------------------------------------------------------- ConfigMap, Secret, ServiceAccount

export interface ConfigMap extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ConfigMap';
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

/** core/v1 Secret: data values are base64 (Go []byte); stringData is write-only, merged into data on decode. */
export interface Secret extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Secret';
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

export interface ServiceAccount extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ServiceAccount';
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

// ---------------------------------------------------------------- core/v1 Event

export interface EventSource {
  component?: string;
  host?: string;
}

/** core/v1 Event, the shape `kubectl get events` and `kubectl describe` read. */
export interface CoreEvent extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Event';
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: Time | null;
  lastTimestamp?: Time | null;
  count?: number;
  type?: 'Normal' | 'Warning' | string;
  eventTime?: MicroTime | null;
  series?: { count: number; lastObservedTime: MicroTime };
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}
