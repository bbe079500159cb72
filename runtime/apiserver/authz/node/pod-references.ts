// The edges of the Node authorizer's graph that start at a pod (plugin/pkg/auth/authorizer/node/
// graph.go AddPod, with podutil.VisitPodSecretNames and VisitPodConfigmapNames): the Secrets,
// ConfigMaps, PersistentVolumeClaims and ServiceAccount a pod bound to a node may make its kubelet read.
import type { Pod } from '../../../api/index.ts';

export type ReferencedKind = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts';

interface ProjectedSource {
  secret?: { name?: string };
  configMap?: { name?: string };
}

/** Whether `pod` refers to the object `kind`/`name` (in the pod's own namespace). */
export function podReferences(pod: Pod, kind: ReferencedKind, name: string): boolean {
  const spec = pod.spec;
  if (kind === 'serviceaccounts') return (spec.serviceAccountName || 'default') === name;
  const containers = [...(spec.initContainers ?? []), ...spec.containers, ...((spec as { ephemeralContainers?: typeof spec.containers }).ephemeralContainers ?? [])];
  if (kind === 'secrets') {
    if ((spec.imagePullSecrets ?? []).some((s) => s.name === name)) return true;
    for (const v of spec.volumes ?? []) {
      if (v.secret?.secretName === name) return true;
      if (((v.projected?.sources ?? []) as ProjectedSource[]).some((s) => s.secret?.name === name)) return true;
    }
    return containers.some((c) => (c.envFrom ?? []).some((f) => f.secretRef?.name === name) || (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef?.name === name));
  }
  if (kind === 'configmaps') {
    for (const v of spec.volumes ?? []) {
      if (v.configMap?.name === name) return true;
      if (((v.projected?.sources ?? []) as ProjectedSource[]).some((s) => s.configMap?.name === name)) return true;
    }
    return containers.some((c) => (c.envFrom ?? []).some((f) => f.configMapRef?.name === name) || (c.env ?? []).some((e) => e.valueFrom?.configMapKeyRef?.name === name));
  }
  return (spec.volumes ?? []).some((v) => (v as { persistentVolumeClaim?: { claimName?: string } }).persistentVolumeClaim?.claimName === name);
}
