// Our JSON PodSpec as the Go value go-cmp walks in ValidatePodUpdate: the internal core.PodSpec with
// every field in declaration order (pkg/apis/core/types.go, v1.33), so that go-cmp-diff.ts can count
// "... // N identical fields" as upstream does. The structs a learner's edit usually reaches
// (PodSpec, Container, ContainerPort, EnvVar, ResourceRequirements, VolumeMount, Volume,
// VolumeSource, Toleration) are listed field by field; anything deeper (probes, affinity, security
// contexts, volume sources' bodies) is converted generically: its JSON keys, in order, as CamelCase
// fields, which prints the same values but may count identical fields differently than upstream.
// Differs from upstream: the internal PodSecurityContext also holds hostNetwork/hostPID/hostIPC
// (upstream converts them there); we keep them as generic fields of SecurityContext too.
import { Quantity } from '../resource/quantity.ts';
import type { GoValue } from './go-cmp-diff.ts';

type Schema =
  | { k: 'string' | 'int' | 'bool'; type?: string }
  | { k: 'struct'; type: string; fields: readonly (readonly [goName: string, jsonName: string, schema: Schema])[] }
  | { k: 'slice'; type: string; elem: Schema }
  | { k: 'map'; type: string; elem: Schema; stringerKeys?: boolean }
  | { k: 'ptr'; type: string; elem: Schema }
  | { k: 'quantity' }
  | { k: 'generic'; type: string }
  | { k: 'embedded'; schema: Extract<Schema, { k: 'struct' }> };

const str: Schema = { k: 'string' };
const int: Schema = { k: 'int' };
const ptr = (type: string, elem: Schema): Schema => ({ k: 'ptr', type, elem });
const sliceOf = (type: string, elem: Schema): Schema => ({ k: 'slice', type, elem });
const generic = (type: string): Schema => ({ k: 'generic', type });
const genericPtr = (type: string): Schema => ptr(`*${type}`, generic(type));
const resourceList: Schema = { k: 'map', type: 'core.ResourceList', elem: { k: 'quantity' }, stringerKeys: true };

const CONTAINER_PORT: Schema = {
  k: 'struct', type: 'core.ContainerPort',
  fields: [['Name', 'name', str], ['HostPort', 'hostPort', int], ['ContainerPort', 'containerPort', int], ['Protocol', 'protocol', str], ['HostIP', 'hostIP', str]],
};
const ENV_VAR: Schema = {
  k: 'struct', type: 'core.EnvVar',
  fields: [['Name', 'name', str], ['Value', 'value', str], ['ValueFrom', 'valueFrom', genericPtr('core.EnvVarSource')]],
};
const RESOURCES: Extract<Schema, { k: 'struct' }> = {
  k: 'struct', type: 'core.ResourceRequirements',
  fields: [['Limits', 'limits', resourceList], ['Requests', 'requests', resourceList], ['Claims', 'claims', sliceOf('[]core.ResourceClaim', generic('core.ResourceClaim'))]],
};
const VOLUME_MOUNT: Schema = {
  k: 'struct', type: 'core.VolumeMount',
  fields: [
    ['Name', 'name', str], ['ReadOnly', 'readOnly', { k: 'bool' }], ['RecursiveReadOnly', 'recursiveReadOnly', genericPtr('core.RecursiveReadOnlyMode')],
    ['MountPath', 'mountPath', str], ['SubPath', 'subPath', str], ['MountPropagation', 'mountPropagation', ptr('*core.MountPropagationMode', str)],
    ['SubPathExpr', 'subPathExpr', str],
  ],
};
const CONTAINER: Schema = {
  k: 'struct', type: 'core.Container',
  fields: [
    ['Name', 'name', str], ['Image', 'image', str],
    ['Command', 'command', sliceOf('[]string', str)], ['Args', 'args', sliceOf('[]string', str)], ['WorkingDir', 'workingDir', str],
    ['Ports', 'ports', sliceOf('[]core.ContainerPort', CONTAINER_PORT)],
    ['EnvFrom', 'envFrom', sliceOf('[]core.EnvFromSource', generic('core.EnvFromSource'))],
    ['Env', 'env', sliceOf('[]core.EnvVar', ENV_VAR)],
    ['Resources', 'resources', RESOURCES],
    ['ResizePolicy', 'resizePolicy', sliceOf('[]core.ContainerResizePolicy', generic('core.ContainerResizePolicy'))],
    ['RestartPolicy', 'restartPolicy', ptr('*core.ContainerRestartPolicy', str)],
    ['VolumeMounts', 'volumeMounts', sliceOf('[]core.VolumeMount', VOLUME_MOUNT)],
    ['VolumeDevices', 'volumeDevices', sliceOf('[]core.VolumeDevice', generic('core.VolumeDevice'))],
    ['LivenessProbe', 'livenessProbe', genericPtr('core.Probe')],
    ['ReadinessProbe', 'readinessProbe', genericPtr('core.Probe')],
    ['StartupProbe', 'startupProbe', genericPtr('core.Probe')],
    ['Lifecycle', 'lifecycle', genericPtr('core.Lifecycle')],
    ['TerminationMessagePath', 'terminationMessagePath', str],
    ['TerminationMessagePolicy', 'terminationMessagePolicy', str],
    ['ImagePullPolicy', 'imagePullPolicy', str],
    ['SecurityContext', 'securityContext', genericPtr('core.SecurityContext')],
    ['Stdin', 'stdin', { k: 'bool' }], ['StdinOnce', 'stdinOnce', { k: 'bool' }], ['TTY', 'tty', { k: 'bool' }],
  ],
};
/** VolumeSource's members in declaration order; each is a pointer to its own source struct. */
const VOLUME_SOURCES: readonly (readonly [string, string, string])[] = [
  ['HostPath', 'hostPath', 'HostPathVolumeSource'], ['EmptyDir', 'emptyDir', 'EmptyDirVolumeSource'],
  ['GCEPersistentDisk', 'gcePersistentDisk', 'GCEPersistentDiskVolumeSource'], ['AWSElasticBlockStore', 'awsElasticBlockStore', 'AWSElasticBlockStoreVolumeSource'],
  ['GitRepo', 'gitRepo', 'GitRepoVolumeSource'], ['Secret', 'secret', 'SecretVolumeSource'], ['NFS', 'nfs', 'NFSVolumeSource'],
  ['ISCSI', 'iscsi', 'ISCSIVolumeSource'], ['Glusterfs', 'glusterfs', 'GlusterfsVolumeSource'],
  ['PersistentVolumeClaim', 'persistentVolumeClaim', 'PersistentVolumeClaimVolumeSource'], ['RBD', 'rbd', 'RBDVolumeSource'],
  ['Quobyte', 'quobyte', 'QuobyteVolumeSource'], ['FlexVolume', 'flexVolume', 'FlexVolumeSource'], ['Cinder', 'cinder', 'CinderVolumeSource'],
  ['CephFS', 'cephfs', 'CephFSVolumeSource'], ['Flocker', 'flocker', 'FlockerVolumeSource'], ['DownwardAPI', 'downwardAPI', 'DownwardAPIVolumeSource'],
  ['FC', 'fc', 'FCVolumeSource'], ['AzureFile', 'azureFile', 'AzureFileVolumeSource'], ['ConfigMap', 'configMap', 'ConfigMapVolumeSource'],
  ['VsphereVolume', 'vsphereVolume', 'VsphereVirtualDiskVolumeSource'], ['AzureDisk', 'azureDisk', 'AzureDiskVolumeSource'],
  ['PhotonPersistentDisk', 'photonPersistentDisk', 'PhotonPersistentDiskVolumeSource'], ['Projected', 'projected', 'ProjectedVolumeSource'],
  ['PortworxVolume', 'portworxVolume', 'PortworxVolumeSource'], ['ScaleIO', 'scaleIO', 'ScaleIOVolumeSource'], ['StorageOS', 'storageos', 'StorageOSVolumeSource'],
  ['CSI', 'csi', 'CSIVolumeSource'], ['Ephemeral', 'ephemeral', 'EphemeralVolumeSource'], ['Image', 'image', 'ImageVolumeSource'],
];
const VOLUME: Schema = {
  k: 'struct', type: 'core.Volume',
  fields: [
    ['Name', 'name', str],
    ['VolumeSource', '', { k: 'embedded', schema: { k: 'struct', type: 'core.VolumeSource', fields: VOLUME_SOURCES.map(([g, j, t]) => [g, j, genericPtr(`core.${t}`)] as const) } }],
  ],
};
const TOLERATION: Schema = {
  k: 'struct', type: 'core.Toleration',
  fields: [['Key', 'key', str], ['Operator', 'operator', str], ['Value', 'value', str], ['Effect', 'effect', str], ['TolerationSeconds', 'tolerationSeconds', ptr('*int64', int)]],
};
export const POD_SPEC: Schema = {
  k: 'struct', type: 'core.PodSpec',
  fields: [
    ['Volumes', 'volumes', sliceOf('[]core.Volume', VOLUME)],
    ['InitContainers', 'initContainers', sliceOf('[]core.Container', CONTAINER)],
    ['Containers', 'containers', sliceOf('[]core.Container', CONTAINER)],
    ['EphemeralContainers', 'ephemeralContainers', sliceOf('[]core.EphemeralContainer', generic('core.EphemeralContainer'))],
    ['RestartPolicy', 'restartPolicy', str],
    ['TerminationGracePeriodSeconds', 'terminationGracePeriodSeconds', ptr('*int64', int)],
    ['ActiveDeadlineSeconds', 'activeDeadlineSeconds', ptr('*int64', int)],
    ['DNSPolicy', 'dnsPolicy', str],
    ['NodeSelector', 'nodeSelector', { k: 'map', type: 'map[string]string', elem: str }],
    ['ServiceAccountName', 'serviceAccountName', str],
    ['AutomountServiceAccountToken', 'automountServiceAccountToken', ptr('*bool', { k: 'bool' })],
    ['NodeName', 'nodeName', str],
    ['SecurityContext', 'securityContext', genericPtr('core.PodSecurityContext')],
    ['ImagePullSecrets', 'imagePullSecrets', sliceOf('[]core.LocalObjectReference', generic('core.LocalObjectReference'))],
    ['Hostname', 'hostname', str], ['Subdomain', 'subdomain', str],
    ['SetHostnameAsFQDN', 'setHostnameAsFQDN', ptr('*bool', { k: 'bool' })],
    ['Affinity', 'affinity', genericPtr('core.Affinity')],
    ['SchedulerName', 'schedulerName', str],
    ['Tolerations', 'tolerations', sliceOf('[]core.Toleration', TOLERATION)],
    ['HostAliases', 'hostAliases', sliceOf('[]core.HostAlias', generic('core.HostAlias'))],
    ['PriorityClassName', 'priorityClassName', str],
    ['Priority', 'priority', ptr('*int32', int)],
    ['PreemptionPolicy', 'preemptionPolicy', ptr('*core.PreemptionPolicy', str)],
    ['DNSConfig', 'dnsConfig', genericPtr('core.PodDNSConfig')],
    ['ReadinessGates', 'readinessGates', sliceOf('[]core.PodReadinessGate', generic('core.PodReadinessGate'))],
    ['RuntimeClassName', 'runtimeClassName', ptr('*string', str)],
    ['Overhead', 'overhead', resourceList],
    ['EnableServiceLinks', 'enableServiceLinks', ptr('*bool', { k: 'bool' })],
    ['TopologySpreadConstraints', 'topologySpreadConstraints', sliceOf('[]core.TopologySpreadConstraint', generic('core.TopologySpreadConstraint'))],
    ['OS', 'os', genericPtr('core.PodOS')],
    ['SchedulingGates', 'schedulingGates', sliceOf('[]core.PodSchedulingGate', generic('core.PodSchedulingGate'))],
    ['ResourceClaims', 'resourceClaims', sliceOf('[]core.PodResourceClaim', generic('core.PodResourceClaim'))],
    ['Resources', 'resources', ptr('*core.ResourceRequirements', RESOURCES)],
  ],
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const camel = (k: string): string => (k === 'apiVersion' ? 'APIVersion' : k.charAt(0).toUpperCase() + k.slice(1));
/** Go type names of the generic members met most (the kube-api-access projected volume). */
const GENERIC_TYPES: Record<string, string> = {
  Sources: 'VolumeProjection', Items: 'KeyToPath', ServiceAccountToken: 'ServiceAccountTokenProjection', ConfigMap: 'ConfigMapProjection',
  DownwardAPI: 'DownwardAPIProjection', FieldRef: 'ObjectFieldSelector', LocalObjectReference: 'LocalObjectReference',
};
const genericType = (goName: string): string => `core.${GENERIC_TYPES[goName] ?? goName}`;

/** resource.Quantity as go-cmp prints it: {i: resource.int64Amount{value, scale}, s, Format}. */
function quantity(raw: unknown): GoValue {
  const parsed = Quantity.parse(String(raw));
  const canonical = parsed.ok ? parsed.quantity.canonical() : String(raw);
  const m = /^(-?\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(canonical);
  const scales: Record<string, [number, string]> = {
    m: [-3, 'DecimalSI'], k: [3, 'DecimalSI'], M: [6, 'DecimalSI'], G: [9, 'DecimalSI'], T: [12, 'DecimalSI'], P: [15, 'DecimalSI'], E: [18, 'DecimalSI'],
    Ki: [0, 'BinarySI'], Mi: [0, 'BinarySI'], Gi: [0, 'BinarySI'], Ti: [0, 'BinarySI'], Pi: [0, 'BinarySI'], Ei: [0, 'BinarySI'],
  };
  const binaryPow: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
  let [value, scale, format] = [m ? Number(m[1]) : 0, 0, 'DecimalSI'];
  if (m?.[2]) {
    [scale, format] = scales[m[2]]!;
    if (binaryPow[m[2]] !== undefined) value *= 2 ** binaryPow[m[2]]!;
  }
  return {
    kind: 'struct', type: 'resource.Quantity', equalMethod: true,
    fields: [
      ['i', { kind: 'struct', type: 'resource.int64Amount', fields: [['value', { kind: 'prim', type: 'int64', value }], ['scale', { kind: 'prim', type: 'resource.Scale', value: scale }]] }],
      ['d', { kind: 'ptr', type: '*inf.Dec', elem: null }],
      ['s', { kind: 'prim', type: 'string', value: canonical }],
      ['Format', { kind: 'prim', type: 'resource.Format', value: format }],
    ],
  };
}

/**
 * Unlisted structs: their JSON keys in order, as exported Go fields. Most optional members of
 * Kubernetes structs are pointers (volume sources, fieldRef, defaultMode, optional), so nested
 * objects, numbers and booleans become pointers; list elements and strings stay values.
 */
function genericValue(raw: unknown, type: string, inSlice = false): GoValue {
  if (Array.isArray(raw)) return { kind: 'slice', type: `[]${type}`, elems: raw.map((e) => genericValue(e, type, true)) };
  if (isObj(raw)) {
    const fields = Object.entries(raw).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [camel(k), genericField(v, genericType(camel(k)))] as const);
    return { kind: 'struct', type, fields };
  }
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return { kind: 'prim', type: typeof raw, value: raw };
  return inSlice ? { kind: 'struct', type, fields: [] } : { kind: 'ptr', type: `*${type}`, elem: null };
}

function genericField(v: unknown, type: string): GoValue {
  if (typeof v === 'string' || Array.isArray(v)) return genericValue(v, type);
  return { kind: 'ptr', type: `*${type}`, elem: genericValue(v, type) };
}

export function toGoValue(raw: unknown, s: Schema): GoValue {
  switch (s.k) {
    case 'string': return { kind: 'prim', type: 'string', value: typeof raw === 'string' ? raw : '' };
    case 'int': return { kind: 'prim', type: 'int', value: typeof raw === 'number' ? raw : 0 };
    case 'bool': return { kind: 'prim', type: 'bool', value: raw === true };
    case 'quantity': return quantity(raw);
    case 'generic': return isObj(raw) ? genericValue(raw, s.type) : { kind: 'struct', type: s.type, fields: [] };
    case 'ptr': return { kind: 'ptr', type: s.type, elem: raw === undefined || raw === null ? null : toGoValue(raw, s.elem) };
    case 'slice': return { kind: 'slice', type: s.type, elems: Array.isArray(raw) ? raw.map((e) => toGoValue(e, s.elem)) : null };
    case 'map': {
      if (!isObj(raw)) return { kind: 'map', type: s.type, entries: null };
      const keys = Object.keys(raw).sort();
      return { kind: 'map', type: s.type, entries: keys.map((k) => [s.stringerKeys ? `s${JSON.stringify(k)}` : JSON.stringify(k), toGoValue(raw[k], s.elem)] as const) };
    }
    case 'embedded': return toGoValue(raw, s.schema);
    case 'struct': {
      const o = isObj(raw) ? raw : {};
      return { kind: 'struct', type: s.type, fields: s.fields.map(([g, j, f]) => [g, toGoValue(f.k === 'embedded' ? o : o[j], f)] as const) };
    }
  }
}
