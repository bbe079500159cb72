// Text the kubelet writes where a learner reads it: Go's time.Duration.String() (event messages
// print durations the Go way: "1.69s", "812ms", "1m30s") and format.Pod ("name_namespace(uid)").

/** time.Duration(ms).String() for whole milliseconds. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = (rest / 1000).toFixed(3).replace(/\.?0+$/, '');
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

/** pkg/kubelet/util/format.Pod: "nginx_default(6f1c...)". */
export function formatPod(pod: { metadata: { name?: string; namespace?: string; uid?: string } }): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}
