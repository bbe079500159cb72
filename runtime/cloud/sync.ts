// Object references the cloud controllers' events point at. (Their worker loop is client's
// runWorkers, the one kube-controller-manager's controllers use.)
import type { Node, ObjectReference, Service } from '../api/index.ts';

export function nodeReference(node: Node): ObjectReference {
  return { kind: 'Node', apiVersion: 'v1', name: node.metadata.name ?? '', ...(node.metadata.uid ? { uid: node.metadata.uid } : {}) };
}

export function serviceReference(svc: Service): ObjectReference {
  const m = svc.metadata;
  return {
    kind: 'Service', apiVersion: 'v1', namespace: m.namespace ?? 'default', name: m.name ?? '',
    ...(m.uid ? { uid: m.uid } : {}), ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}
