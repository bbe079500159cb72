// The JSON field names of the API types, for strict decoding: which fields of a request body the
// Go structs know (sigs.k8s.io/json's UnmarshalStrict reports every other one as
// `unknown field "spec.template.spec.containers[0].imagee"`, in document order, case-sensitively).
// mirrors staging/src/k8s.io/api/{core,apps,rbac}/v1/types.go and
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go as of v1.33.
//
// Only the kinds the book's manifests use are described field by field (Pod, Deployment,
// ReplicaSet, DaemonSet, Service, ConfigMap, Secret, Role, ClusterRole, RoleBinding,
// ClusterRoleBinding); every `status` is left unchecked (clients write it through the status
// subresource with what the server sent), and so are the insides of the rarer volume sources.
// Other kinds are checked at the top level only (their fields listed by the API server's decoder).

/** A field's value: 'any' is not looked into (scalars, maps of scalars, quantities, unchecked structs). */
export type FieldSchema = 'any' | { struct: () => StructSchema } | { array: () => StructSchema };

/** The known fields of one struct. */
export type StructSchema = Readonly<Record<string, FieldSchema>>;

const any = 'any' as const;
const struct = (s: () => StructSchema): FieldSchema => ({ struct: s });
const array = (s: () => StructSchema): FieldSchema => ({ array: s });
/** A struct whose fields are all scalars (or maps of them). */
const flat = (...names: string[]): StructSchema => Object.fromEntries(names.map((n) => [n, any]));

// ---------------------------------------------------------------- meta/v1

const OwnerReference = flat('apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion');
const ManagedFieldsEntry = flat('manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource');
export const ObjectMeta: StructSchema = {
  ...flat('name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
    'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'),
  ownerReferences: array(() => OwnerReference),
  managedFields: array(() => ManagedFieldsEntry),
};
const LabelSelectorRequirement = flat('key', 'operator', 'values');
const LabelSelector: StructSchema = { matchLabels: any, matchExpressions: array(() => LabelSelectorRequirement) };

// ---------------------------------------------------------------- core/v1 pods

const KeyToPath = flat('key', 'path', 'mode');
const ObjectFieldSelector = flat('apiVersion', 'fieldPath');
const ResourceFieldSelector = flat('containerName', 'resource', 'divisor');
const KeySelector = flat('name', 'key', 'optional');
const EnvVarSource: StructSchema = {
  fieldRef: struct(() => ObjectFieldSelector),
  resourceFieldRef: struct(() => ResourceFieldSelector),
  configMapKeyRef: struct(() => KeySelector),
  secretKeyRef: struct(() => KeySelector),
};
const EnvVar: StructSchema = { name: any, value: any, valueFrom: struct(() => EnvVarSource) };
const EnvFromSource: StructSchema = {
  prefix: any,
  configMapRef: struct(() => flat('name', 'optional')),
  secretRef: struct(() => flat('name', 'optional')),
};
const ContainerPort = flat('name', 'hostPort', 'containerPort', 'protocol', 'hostIP');
const ResourceRequirements: StructSchema = { limits: any, requests: any, claims: array(() => flat('name', 'request')) };
const VolumeMount = flat('name', 'readOnly', 'recursiveReadOnly', 'mountPath', 'subPath', 'mountPropagation', 'subPathExpr');
const HTTPGetAction: StructSchema = {
  ...flat('path', 'port', 'host', 'scheme'),
  httpHeaders: array(() => flat('name', 'value')),
};
const ProbeHandlerFields: StructSchema = {
  exec: struct(() => flat('command')),
  httpGet: struct(() => HTTPGetAction),
  tcpSocket: struct(() => flat('port', 'host')),
  grpc: struct(() => flat('port', 'service')),
};
const Probe: StructSchema = {
  ...ProbeHandlerFields,
  ...flat('initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold',
    'terminationGracePeriodSeconds'),
};
const LifecycleHandler: StructSchema = {
  exec: struct(() => flat('command')),
  httpGet: struct(() => HTTPGetAction),
  tcpSocket: struct(() => flat('port', 'host')),
  sleep: struct(() => flat('seconds')),
};
const Lifecycle: StructSchema = { postStart: struct(() => LifecycleHandler), preStop: struct(() => LifecycleHandler), stopSignal: any };
const SELinuxOptions = flat('user', 'role', 'type', 'level');
const WindowsSecurityContextOptions = flat('gmsaCredentialSpecName', 'gmsaCredentialSpec', 'runAsUserName', 'hostProcess');
const ProfileFields = flat('type', 'localhostProfile');
const SecurityContext: StructSchema = {
  capabilities: struct(() => flat('add', 'drop')),
  seLinuxOptions: struct(() => SELinuxOptions),
  windowsOptions: struct(() => WindowsSecurityContextOptions),
  seccompProfile: struct(() => ProfileFields),
  appArmorProfile: struct(() => ProfileFields),
  ...flat('privileged', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount'),
};
const ContainerCommon: StructSchema = {
  ...flat('name', 'image', 'command', 'args', 'workingDir', 'restartPolicy', 'terminationMessagePath',
    'terminationMessagePolicy', 'imagePullPolicy', 'stdin', 'stdinOnce', 'tty'),
  ports: array(() => ContainerPort),
  envFrom: array(() => EnvFromSource),
  env: array(() => EnvVar),
  resources: struct(() => ResourceRequirements),
  resizePolicy: array(() => flat('resourceName', 'restartPolicy')),
  volumeMounts: array(() => VolumeMount),
  volumeDevices: array(() => flat('name', 'devicePath')),
  livenessProbe: struct(() => Probe),
  readinessProbe: struct(() => Probe),
  startupProbe: struct(() => Probe),
  lifecycle: struct(() => Lifecycle),
  securityContext: struct(() => SecurityContext),
};
const Container = ContainerCommon;
const EphemeralContainer: StructSchema = { ...ContainerCommon, targetContainerName: any };

const VolumeProjection: StructSchema = {
  secret: struct(() => ({ ...flat('name', 'optional'), items: array(() => KeyToPath) })),
  configMap: struct(() => ({ ...flat('name', 'optional'), items: array(() => KeyToPath) })),
  downwardAPI: any,
  serviceAccountToken: struct(() => flat('audience', 'expirationSeconds', 'path')),
  clusterTrustBundle: any,
};
const Volume: StructSchema = {
  name: any,
  hostPath: struct(() => flat('path', 'type')),
  emptyDir: struct(() => flat('medium', 'sizeLimit')),
  secret: struct(() => ({ ...flat('secretName', 'defaultMode', 'optional'), items: array(() => KeyToPath) })),
  configMap: struct(() => ({ ...flat('name', 'defaultMode', 'optional'), items: array(() => KeyToPath) })),
  persistentVolumeClaim: struct(() => flat('claimName', 'readOnly')),
  projected: struct(() => ({ defaultMode: any, sources: array(() => VolumeProjection) })),
  downwardAPI: any,
  nfs: any,
  csi: any,
  ephemeral: any,
  image: struct(() => flat('reference', 'pullPolicy')),
  // the in-tree and deprecated sources, known but not looked into
  ...flat('gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder',
    'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk',
    'portworxVolume', 'scaleIO', 'storageos'),
};

const NodeSelectorRequirement = flat('key', 'operator', 'values');
const NodeSelectorTerm: StructSchema = {
  matchExpressions: array(() => NodeSelectorRequirement),
  matchFields: array(() => NodeSelectorRequirement),
};
const NodeSelector: StructSchema = { nodeSelectorTerms: array(() => NodeSelectorTerm) };
const PodAffinityTerm: StructSchema = {
  labelSelector: struct(() => LabelSelector),
  namespaceSelector: struct(() => LabelSelector),
  ...flat('namespaces', 'topologyKey', 'matchLabelKeys', 'mismatchLabelKeys'),
};
const PodAffinity: StructSchema = {
  requiredDuringSchedulingIgnoredDuringExecution: array(() => PodAffinityTerm),
  preferredDuringSchedulingIgnoredDuringExecution: array(() => ({ weight: any, podAffinityTerm: struct(() => PodAffinityTerm) })),
};
const Affinity: StructSchema = {
  nodeAffinity: struct(() => ({
    requiredDuringSchedulingIgnoredDuringExecution: struct(() => NodeSelector),
    preferredDuringSchedulingIgnoredDuringExecution: array(() => ({ weight: any, preference: struct(() => NodeSelectorTerm) })),
  })),
  podAffinity: struct(() => PodAffinity),
  podAntiAffinity: struct(() => PodAffinity),
};
const Toleration = flat('key', 'operator', 'value', 'effect', 'tolerationSeconds');
const TopologySpreadConstraint: StructSchema = {
  ...flat('maxSkew', 'topologyKey', 'whenUnsatisfiable', 'minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy', 'matchLabelKeys'),
  labelSelector: struct(() => LabelSelector),
};
const PodSecurityContext: StructSchema = {
  seLinuxOptions: struct(() => SELinuxOptions),
  windowsOptions: struct(() => WindowsSecurityContextOptions),
  seccompProfile: struct(() => ProfileFields),
  appArmorProfile: struct(() => ProfileFields),
  sysctls: array(() => flat('name', 'value')),
  ...flat('runAsUser', 'runAsGroup', 'runAsNonRoot', 'supplementalGroups', 'supplementalGroupsPolicy', 'fsGroup',
    'fsGroupChangePolicy', 'seLinuxChangePolicy'),
};
export const PodSpec: StructSchema = {
  volumes: array(() => Volume),
  initContainers: array(() => Container),
  containers: array(() => Container),
  ephemeralContainers: array(() => EphemeralContainer),
  securityContext: struct(() => PodSecurityContext),
  imagePullSecrets: array(() => flat('name')),
  affinity: struct(() => Affinity),
  tolerations: array(() => Toleration),
  hostAliases: array(() => flat('ip', 'hostnames')),
  dnsConfig: struct(() => ({ nameservers: any, searches: any, options: array(() => flat('name', 'value')) })),
  readinessGates: array(() => flat('conditionType')),
  topologySpreadConstraints: array(() => TopologySpreadConstraint),
  os: struct(() => flat('name')),
  schedulingGates: array(() => flat('name')),
  resourceClaims: array(() => flat('name', 'resourceClaimName', 'resourceClaimTemplateName')),
  resources: struct(() => ResourceRequirements),
  ...flat('restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector',
    'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID',
    'hostIPC', 'shareProcessNamespace', 'hostname', 'subdomain', 'schedulerName', 'priorityClassName', 'priority',
    'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'overhead', 'setHostnameAsFQDN', 'hostUsers'),
};
const PodTemplateSpec: StructSchema = { metadata: struct(() => ObjectMeta), spec: struct(() => PodSpec) };

// ---------------------------------------------------------------- core/v1 services

const ServiceSpec: StructSchema = {
  ports: array(() => flat('name', 'protocol', 'appProtocol', 'port', 'targetPort', 'nodePort')),
  sessionAffinityConfig: struct(() => ({ clientIP: struct(() => flat('timeoutSeconds')) })),
  ...flat('selector', 'clusterIP', 'clusterIPs', 'type', 'externalIPs', 'sessionAffinity', 'loadBalancerIP',
    'loadBalancerSourceRanges', 'externalName', 'externalTrafficPolicy', 'healthCheckNodePort',
    'publishNotReadyAddresses', 'ipFamilies', 'ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass',
    'internalTrafficPolicy', 'trafficDistribution'),
};

// ---------------------------------------------------------------- apps/v1

const RollingUpdate = flat('maxUnavailable', 'maxSurge');
const DeploymentSpec: StructSchema = {
  selector: struct(() => LabelSelector),
  template: struct(() => PodTemplateSpec),
  strategy: struct(() => ({ type: any, rollingUpdate: struct(() => RollingUpdate) })),
  ...flat('replicas', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'),
};
const ReplicaSetSpec: StructSchema = {
  selector: struct(() => LabelSelector),
  template: struct(() => PodTemplateSpec),
  ...flat('replicas', 'minReadySeconds'),
};
const DaemonSetSpec: StructSchema = {
  selector: struct(() => LabelSelector),
  template: struct(() => PodTemplateSpec),
  updateStrategy: struct(() => ({ type: any, rollingUpdate: struct(() => RollingUpdate) })),
  ...flat('minReadySeconds', 'revisionHistoryLimit'),
};

// ---------------------------------------------------------------- rbac/v1

const PolicyRule = flat('verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs');
const Subject = flat('kind', 'apiGroup', 'name', 'namespace');
const RoleRef = flat('apiGroup', 'kind', 'name');

// ---------------------------------------------------------------- kinds

const withMeta = (fields: StructSchema): StructSchema => ({ apiVersion: any, kind: any, metadata: struct(() => ObjectMeta), ...fields });

const KINDS: Readonly<Record<string, StructSchema>> = {
  'core/Pod': withMeta({ spec: struct(() => PodSpec), status: any }),
  'core/Service': withMeta({ spec: struct(() => ServiceSpec), status: any }),
  'core/ConfigMap': withMeta(flat('data', 'binaryData', 'immutable')),
  'core/Secret': withMeta(flat('data', 'stringData', 'type', 'immutable')),
  'apps/Deployment': withMeta({ spec: struct(() => DeploymentSpec), status: any }),
  'apps/ReplicaSet': withMeta({ spec: struct(() => ReplicaSetSpec), status: any }),
  'apps/DaemonSet': withMeta({ spec: struct(() => DaemonSetSpec), status: any }),
  'rbac.authorization.k8s.io/Role': withMeta({ rules: array(() => PolicyRule) }),
  'rbac.authorization.k8s.io/ClusterRole': withMeta({
    rules: array(() => PolicyRule),
    aggregationRule: struct(() => ({ clusterRoleSelectors: array(() => LabelSelector) })),
  }),
  'rbac.authorization.k8s.io/RoleBinding': withMeta({ subjects: array(() => Subject), roleRef: struct(() => RoleRef) }),
  'rbac.authorization.k8s.io/ClusterRoleBinding': withMeta({ subjects: array(() => Subject), roleRef: struct(() => RoleRef) }),
};

/** The whole-object schema of a kind, when it is described field by field. */
export function kindSchema(group: string, kind: string): StructSchema | undefined {
  return KINDS[`${group === '' ? 'core' : group}/${kind}`];
}

/** One field the schema does not know: its path as the strict decoder prints it, and where it sits. */
export interface UnknownField {
  path: string;
  parent: Record<string, unknown>;
  key: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every field of `obj` the schema does not know, in document order, with the strict decoder's path
 * ("spec.replica", "spec.template.spec.containers[0].imagee"). Values of the wrong JSON type are not
 * looked into (decoding reports those differently).
 */
export function unknownFields(obj: Record<string, unknown>, schema: StructSchema, prefix = ''): UnknownField[] {
  const out: UnknownField[] = [];
  walk(obj, schema, prefix, out);
  return out;
}

function walk(obj: Record<string, unknown>, schema: StructSchema, prefix: string, out: UnknownField[]): void {
  for (const key of Object.keys(obj)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const field = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (field === undefined) {
      out.push({ path, parent: obj, key });
      continue;
    }
    if (field === 'any') continue;
    const value = obj[key];
    if ('struct' in field) {
      if (isObject(value)) walk(value, field.struct(), path, out);
    } else if (Array.isArray(value)) {
      const item = field.array();
      value.forEach((v, i) => {
        if (isObject(v)) walk(v, item, `${path}[${i}]`, out);
      });
    }
  }
}
