// The scale subresource: an autoscaling/v1 Scale view of a Deployment or ReplicaSet.
// mirrors pkg/registry/apps/deployment/storage/storage.go (ScaleREST, scaleFromDeployment) and
// the selector string that `kubectl get --raw .../scale` shows in status.selector.
import { formatLabelSelector, type KubeObject, type LabelSelector, type ResourceInfo } from '../../api/index.ts';

export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

export function toScale(obj: KubeObject, _r: ResourceInfo): Scale {
  const o = obj as KubeObject & { spec?: { replicas?: number; selector?: LabelSelector }; status?: { replicas?: number } };
  const m = obj.metadata;
  const metadata: KubeObject['metadata'] = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) if (m[k] !== undefined) (metadata as Record<string, unknown>)[k] = m[k];
  const scale: Scale = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: o.spec?.replicas ?? 0 },
    status: { replicas: o.status?.replicas ?? 0 },
  };
  if (o.spec?.selector) scale.status.selector = formatLabelSelector(o.spec.selector);
  return scale;
}

/** The replicas a Scale body asks for, or an error text. */
export function replicasFromScale(body: unknown): number | string {
  const spec = typeof body === 'object' && body !== null ? (body as { spec?: { replicas?: unknown } }).spec : undefined;
  const replicas = spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) return 'json: cannot unmarshal into Go struct field ScaleSpec.spec.replicas of type int32';
  if (replicas < -2147483648 || replicas > 2147483647) return `json: cannot unmarshal number ${replicas} into Go struct field ScaleSpec.spec.replicas of type int32`;
  return replicas;
}
