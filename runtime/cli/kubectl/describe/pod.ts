// kubectl describe pod, and the container/template sections other describers reuse.
// mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go (describePod, describeContainers,
// describeContainerBasicInfo, describeStatus, describeVolumes, printPodTolerationsMultiline,
// DescribePodTemplate).
import type {
  Container,
  ContainerState,
  ContainerStatus,
  CoreEvent,
  EnvVar,
  KubeObject,
  Pod,
  PodTemplateSpec,
  Toleration,
  Volume,
} from '../../../api/index.ts';
import { containerResourceValue, parseRFC3339, podFieldPathValue } from '../../../api/index.ts';
import { humanDuration } from '../duration.ts';
import { writeEvents } from './events.ts';
import {
  LEVEL_0,
  LEVEL_1,
  LEVEL_2,
  LEVEL_3,
  PrefixWriter,
  rfc1123z,
  writeAnnotations,
  writeLabels,
} from './writer.ts';

const printBool = (b: boolean): string => (b ? 'True' : 'False');
const stringOrNone = (s: string): string => (s === '' ? '<none>' : s);

/** "Controlled By": Kind/name of the controller owner reference. */
export function controllerOf(obj: KubeObject): string {
  const owner = (obj.metadata.ownerReferences ?? []).find((o) => o.controller);
  return owner ? `${owner.kind}/${owner.name}` : '';
}

function writeState(w: PrefixWriter, title: string, state: ContainerState | undefined): void {
  if (state?.running) {
    w.write(LEVEL_2, `${title}:\tRunning\n`);
    w.write(LEVEL_3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(LEVEL_2, `${title}:\tTerminated\n`);
    if (t.reason) w.write(LEVEL_3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(LEVEL_3, `Message:\t${t.message}\n`);
    w.write(LEVEL_3, `Exit Code:\t${t.exitCode}\n`);
    if ((t.signal ?? 0) > 0) w.write(LEVEL_3, `Signal:\t${t.signal}\n`);
    w.write(LEVEL_3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(LEVEL_3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(LEVEL_2, `${title}:\tWaiting\n`);
    if (state?.waiting?.reason) w.write(LEVEL_3, `Reason:\t${state.waiting.reason}\n`);
  }
}

function writeResources(w: PrefixWriter, c: Container): void {
  for (const [title, list] of [
    ['Limits', c.resources?.limits],
    ['Requests', c.resources?.requests],
  ] as const) {
    const names = Object.keys(list ?? {}).sort();
    if (names.length === 0) continue;
    w.write(LEVEL_2, `${title}:\n`);
    for (const n of names) w.write(LEVEL_3, `${n}:\t${list![n]}\n`);
  }
}

/** describeContainerEnvVars: one line per variable, by where its value comes from. */
function writeEnvVar(w: PrefixWriter, e: EnvVar, c: Container, pod: Pod | undefined): void {
  const from = e.valueFrom;
  if (!from) {
    const [first = '', ...rest] = (e.value ?? '').split('\n');
    w.write(LEVEL_3, `${e.name}:\t${first}\n`);
    for (const line of rest) w.write(LEVEL_3, `\t${line}\n`);
    return;
  }
  if (from.fieldRef) {
    const value = pod ? podFieldPathValue(pod, from.fieldRef.fieldPath) : '';
    w.write(LEVEL_3, `${e.name}:\t${value} (${from.fieldRef.apiVersion ?? 'v1'}:${from.fieldRef.fieldPath})\n`);
  } else if (from.resourceFieldRef) {
    // ExtractContainerResourceValue on this container, in the divisor's units (no node defaults)
    const { resource, divisor } = from.resourceFieldRef;
    const extracted = containerResourceValue({ resource, ...(divisor !== undefined ? { divisor } : {}) }, pod ?? { metadata: {}, spec: { containers: [c] } }, c);
    if (!extracted.ok) return;
    let value = extracted.value;
    if (value === '0' && (resource === 'limits.cpu' || resource === 'limits.memory')) value = 'node allocatable';
    w.write(LEVEL_3, `${e.name}:\t${value} (${resource})\n`);
  } else if (from.secretKeyRef) {
    w.write(LEVEL_3, `${e.name}:\t<set to the key '${from.secretKeyRef.key}' in secret '${from.secretKeyRef.name ?? ''}'>\tOptional: ${from.secretKeyRef.optional === true}\n`);
  } else if (from.configMapKeyRef) {
    w.write(LEVEL_3, `${e.name}:\t<set to the key '${from.configMapKeyRef.key}' of config map '${from.configMapKeyRef.name ?? ''}'>\tOptional: ${from.configMapKeyRef.optional === true}\n`);
  }
}

export function writeContainers(
  w: PrefixWriter,
  title: string,
  containers: Container[],
  statuses: ContainerStatus[] | undefined,
  space: string,
  /** The pod, whose fields a fieldRef shows (EnvValueRetriever); none for a pod template. */
  pod?: Pod,
): void {
  w.write(LEVEL_0, `${space}${title}:\n`);
  for (const c of containers) {
    const status = (statuses ?? []).find((s) => s.name === c.name);
    w.write(LEVEL_1, `${space === '' ? '' : ' '}${c.name}:\n`);
    if (status) w.write(LEVEL_2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(LEVEL_2, `Image:\t${c.image ?? ''}\n`);
    if (status) w.write(LEVEL_2, `Image ID:\t${status.imageID}\n`);
    const ports = (c.ports ?? [])
      .map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`)
      .join(', ');
    const hostPorts = (c.ports ?? [])
      .map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`)
      .join(', ');
    w.write(
      LEVEL_2,
      ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${stringOrNone(ports)}\n`,
    );
    w.write(
      LEVEL_2,
      hostPorts.includes(',')
        ? `Host Ports:\t${hostPorts}\n`
        : `Host Port:\t${stringOrNone(hostPorts)}\n`,
    );
    if (c.command?.length) {
      w.write(LEVEL_2, 'Command:\n');
      for (const part of c.command) w.write(LEVEL_3, `${part}\n`);
    }
    if (c.args?.length) {
      w.write(LEVEL_2, 'Args:\n');
      for (const part of c.args) w.write(LEVEL_3, `${part}\n`);
    }
    if (status) {
      writeState(w, 'State', status.state);
      if (status.lastState?.terminated) writeState(w, 'Last State', status.lastState);
      w.write(LEVEL_2, `Ready:\t${printBool(status.ready)}\n`);
      w.write(LEVEL_2, `Restart Count:\t${status.restartCount}\n`);
    }
    writeResources(w, c);
    if (!c.env?.length) w.write(LEVEL_2, 'Environment:\t<none>\n');
    else {
      w.write(LEVEL_2, 'Environment:\n');
      for (const e of c.env) writeEnvVar(w, e, c, pod);
    }
    if (!c.volumeMounts?.length) w.write(LEVEL_2, 'Mounts:\t<none>\n');
    else {
      w.write(LEVEL_2, 'Mounts:\n');
      for (const m of c.volumeMounts)
        w.write(LEVEL_3, `${m.mountPath} from ${m.name} (${m.readOnly ? 'ro' : 'rw'})\n`);
    }
  }
}

export function writeVolumes(w: PrefixWriter, volumes: Volume[] | undefined, space: string): void {
  if (!volumes?.length) {
    w.write(LEVEL_0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(LEVEL_0, `${space}Volumes:\n`);
  for (const v of volumes) {
    w.write(LEVEL_1, `${space === '' ? '' : ' '}${v.name}:\n`);
    if (v.emptyDir) {
      w.write(LEVEL_2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n");
      w.write(LEVEL_2, `Medium:\t${v.emptyDir.medium ?? ''}\n`);
      w.write(LEVEL_2, `SizeLimit:\t${v.emptyDir.sizeLimit ?? '<unset>'}\n`);
    } else if (v.configMap) {
      w.write(LEVEL_2, 'Type:\tConfigMap (a volume populated by a ConfigMap)\n');
      w.write(LEVEL_2, `Name:\t${v.configMap.name ?? ''}\n`);
      w.write(LEVEL_2, `Optional:\t${v.configMap.optional ?? false}\n`);
    } else if (v.hostPath) {
      w.write(LEVEL_2, 'Type:\tHostPath (bare host directory volume)\n');
      w.write(LEVEL_2, `Path:\t${v.hostPath.path}\n`);
      w.write(LEVEL_2, `HostPathType:\t${v.hostPath.type ?? ''}\n`);
    } else if (v.projected) {
      writeProjectedSources(w, v.projected.sources);
    } else if (v.secret) {
      w.write(LEVEL_2, 'Type:\tSecret (a volume populated by a Secret)\n');
      w.write(LEVEL_2, `SecretName:\t${v.secret.secretName ?? ''}\n`);
      w.write(LEVEL_2, `Optional:\t${v.secret.optional ?? false}\n`);
    }
  }
}

/**
 * printProjectedVolumeSource: a line per source. An optional flag is a *bool printed with %v, so
 * an unset one shows "<nil>" (a set one would print a pointer address; we print its value).
 */
function writeProjectedSources(w: PrefixWriter, sources: Record<string, unknown>[]): void {
  w.write(LEVEL_2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
  const optional = (o: { optional?: boolean }): string => (o.optional === undefined ? '<nil>' : String(o.optional));
  for (const source of sources) {
    const secret = source.secret as { name?: string; optional?: boolean } | undefined;
    const configMap = source.configMap as { name?: string; optional?: boolean } | undefined;
    const token = source.serviceAccountToken as { expirationSeconds?: number } | undefined;
    if (secret) w.write(LEVEL_2, `SecretName:\t${secret.name ?? ''}\n    SecretOptionalName:\t${optional(secret)}\n`);
    else if (source.downwardAPI) w.write(LEVEL_2, 'DownwardAPI:\ttrue\n');
    else if (configMap) w.write(LEVEL_2, `ConfigMapName:\t${configMap.name ?? ''}\n    ConfigMapOptional:\t${optional(configMap)}\n`);
    else if (token) w.write(LEVEL_2, `TokenExpirationSeconds:\t${token.expirationSeconds ?? 0}\n`);
  }
}

/** printPodTolerationsMultiline: key=value:Effect op=Exists for 300s. */
export function writeTolerations(
  w: PrefixWriter,
  tolerations: Toleration[] | undefined,
  indent = '',
): void {
  w.write(LEVEL_0, `${indent}Tolerations:\t`);
  if (!tolerations?.length) {
    w.write(LEVEL_0, '<none>\n');
    return;
  }
  tolerations.forEach((t, i) => {
    let text = i === 0 ? '' : `${indent}\t`;
    text += t.key ?? '';
    if (t.value) text += `=${t.value}`;
    if (t.effect) text += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) text += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined) text += ` for ${t.tolerationSeconds}s`;
    w.write(LEVEL_0, `${text}\n`);
  });
}

/** qos.GetPodQOS, simplified to cpu and memory: BestEffort, Guaranteed or Burstable. */
export function podQOS(pod: Pod): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const containers = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  const any = containers.some(
    (c) =>
      Object.keys(c.resources?.requests ?? {}).length +
        Object.keys(c.resources?.limits ?? {}).length >
      0,
  );
  if (!any) return 'BestEffort';
  const guaranteed = containers.every((c) =>
    ['cpu', 'memory'].every(
      (r) =>
        c.resources?.limits?.[r] !== undefined &&
        (c.resources?.requests?.[r] ?? c.resources.limits[r]) === c.resources.limits[r],
    ),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function describePod(pod: Pod, events: readonly CoreEvent[], nowMs: number): string {
  const w = new PrefixWriter();
  const status = pod.status ?? {};
  w.write(LEVEL_0, `Name:\t${pod.metadata.name ?? ''}\n`);
  w.write(LEVEL_0, `Namespace:\t${pod.metadata.namespace ?? ''}\n`);
  if (pod.spec.priority !== undefined) w.write(LEVEL_0, `Priority:\t${pod.spec.priority}\n`);
  if (pod.spec.priorityClassName)
    w.write(LEVEL_0, `Priority Class Name:\t${pod.spec.priorityClassName}\n`);
  if (pod.spec.serviceAccountName)
    w.write(LEVEL_0, `Service Account:\t${pod.spec.serviceAccountName}\n`);
  w.write(
    LEVEL_0,
    pod.spec.nodeName ? `Node:\t${pod.spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n',
  );
  if (status.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
  writeLabels(w, 'Labels', pod.metadata.labels);
  writeAnnotations(w, 'Annotations', pod.metadata.annotations);
  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (pod.metadata.deletionTimestamp && !terminal) {
    w.write(
      LEVEL_0,
      `Status:\tTerminating (lasts ${untilText(pod.metadata.deletionTimestamp, nowMs)})\n`,
    );
    w.write(
      LEVEL_0,
      `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`,
    );
  } else {
    w.write(LEVEL_0, `Status:\t${status.phase ?? ''}\n`);
  }
  if (status.reason) w.write(LEVEL_0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(LEVEL_0, `Message:\t${status.message}\n`);
  w.write(LEVEL_0, `IP:\t${status.podIP ?? ''}\n`);
  if (!status.podIPs?.length) w.write(LEVEL_0, 'IPs:\t<none>\n');
  else {
    w.write(LEVEL_0, 'IPs:\n');
    for (const ip of status.podIPs) w.write(LEVEL_1, `IP:\t${ip.ip}\n`);
  }
  const controller = controllerOf(pod);
  if (controller) w.write(LEVEL_0, `Controlled By:\t${controller}\n`);
  if (status.nominatedNodeName)
    w.write(LEVEL_0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
  if (pod.spec.initContainers?.length)
    writeContainers(
      w,
      'Init Containers',
      pod.spec.initContainers,
      status.initContainerStatuses,
      '',
      pod,
    );
  writeContainers(w, 'Containers', pod.spec.containers, status.containerStatuses, '', pod);
  if (status.conditions?.length) {
    w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\n');
    for (const c of status.conditions) w.write(LEVEL_1, `${c.type} \t${c.status} \n`);
  }
  writeVolumes(w, pod.spec.volumes, '');
  w.write(LEVEL_0, `QoS Class:\t${podQOS(pod)}\n`);
  writeLabels(w, 'Node-Selectors', pod.spec.nodeSelector);
  writeTolerations(w, pod.spec.tolerations);
  writeEvents(w, events, nowMs);
  return w.toString();
}

/** translateTimestampUntil: the time left until the deletion deadline. */
function untilText(timestamp: string, nowMs: number): string {
  const at = parseRFC3339(timestamp);
  return at === undefined ? '<unknown>' : humanDuration(at - nowMs);
}

/** DescribePodTemplate: the "Pod Template:" block of deployments and replica sets. */
export function writePodTemplate(w: PrefixWriter, template: PodTemplateSpec | undefined): void {
  w.write(LEVEL_0, 'Pod Template:\n');
  if (!template) {
    w.write(LEVEL_1, '<unset>\n');
    return;
  }
  writeLabels(w, 'Labels', template.metadata?.labels, '  ');
  const annotations = template.metadata?.annotations;
  if (annotations && Object.keys(annotations).length > 0)
    writeAnnotations(w, 'Annotations', annotations, '  ');
  if (template.spec.serviceAccountName)
    w.write(LEVEL_1, `Service Account:\t${template.spec.serviceAccountName}\n`);
  if (template.spec.initContainers?.length)
    writeContainers(w, 'Init Containers', template.spec.initContainers, undefined, '  ');
  writeContainers(w, 'Containers', template.spec.containers, undefined, '  ');
  writeVolumes(w, template.spec.volumes, '  ');
  if (template.spec.priorityClassName) w.write(LEVEL_1, `Priority Class Name:\t${template.spec.priorityClassName}\n`);
  writeLabels(w, 'Node-Selectors', template.spec.nodeSelector, '  ');
  writeTolerations(w, template.spec.tolerations, '  ');
}
