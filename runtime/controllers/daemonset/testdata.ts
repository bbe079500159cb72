// Builders shared by the DaemonSet controller's table tests.
import type { DaemonSet, Node, Pod, PodSpec, Taint } from '../../api/index.ts';
import { REVISION_HASH_LABEL } from './pods.ts';

export function node(name: string, o: { labels?: Record<string, string>; taints?: Taint[]; unschedulable?: boolean } = {}): Node {
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(o.labels ?? {}) } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
  } as Node;
}

export function daemonSet(spec: Partial<PodSpec> = {}, o: { maxUnavailable?: number | string; maxSurge?: number | string; onDelete?: boolean; minReadySeconds?: number } = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet',
    metadata: { name: 'ds', namespace: 'default', uid: 'ds-uid', generation: 1, annotations: { 'deprecated.daemonset.template.generation': '1' } },
    spec: {
      selector: { matchLabels: { app: 'ds' } },
      template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } },
      updateStrategy: o.onDelete
        ? { type: 'OnDelete' }
        : { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: o.maxUnavailable ?? 1, maxSurge: o.maxSurge ?? 0 } },
      ...(o.minReadySeconds !== undefined ? { minReadySeconds: o.minReadySeconds } : {}),
    },
  } as DaemonSet;
}

/** A daemon pod bound to nodeName with the given revision hash; ready unless told otherwise. */
export function daemonPod(name: string, nodeName: string, hash: string, o: { ready?: boolean; phase?: 'Running' | 'Failed' | 'Succeeded' | 'Pending'; created?: string; deleting?: boolean; bound?: boolean } = {}): Pod {
  const ready = o.ready ?? true;
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'ds', [REVISION_HASH_LABEL]: hash },
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'ds-uid', controller: true }],
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      ...(o.bound === false ? {} : { nodeName }),
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] } } },
    },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  } as Pod;
}
