// Text the kubelet writes where a learner reads it: format.Pod ("name_namespace(uid)"). Durations in
// event messages are Go's Duration.String, formatGoDuration in runtime/api.

/** pkg/kubelet/util/format.Pod: "nginx_default(6f1c...)". */
export function formatPod(pod: { metadata: { name?: string; namespace?: string; uid?: string } }): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}
