// fieldpath.ExtractFieldPathAsString (pkg/api/v1/pod/util and staging/src/k8s.io/kubectl fieldpath):
// the pod fields the downward API may name, as text. One reading for the kubelet's environment and
// volumes and for kubectl describe's "<value> (v1:<path>)".
import type { Pod } from './types/core.ts';

export function podFieldPathValue(pod: Pod, path: string): string {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name': return pod.metadata.name ?? '';
    case 'metadata.namespace': return pod.metadata.namespace ?? '';
    case 'metadata.uid': return pod.metadata.uid ?? '';
    case 'spec.nodeName': return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName': return pod.spec.serviceAccountName ?? '';
    case 'status.hostIP': return pod.status?.hostIP ?? '';
    case 'status.podIP': return pod.status?.podIP ?? '';
    default: return '';
  }
}
