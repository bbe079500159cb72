// What the kubelet remembers of the pod statuses it wrote, so it writes only on a change, and the
// one case where someone else's write must be undone: the node lifecycle controller marks every pod
// of a silent node Ready=False (MarkPodsNotReady); a kubelet that was only cut off and is back
// must set Ready again. Upstream the status manager's periodic syncBatch compares its cache with
// the API server's copy (pkg/kubelet/status/status_manager.go needsReconcile); we look at Ready,
// the only condition another component writes, in the copy newer than our own last write.
import type { Pod, PodStatus } from '../api/index.ts';

export interface WrittenStatus {
  text: string;
  status: PodStatus;
  /** The resourceVersion our write produced. */
  resourceVersion: string;
}

const readyOf = (status: PodStatus | undefined): string | undefined => status?.conditions?.find((c) => c.type === 'Ready')?.status;

/** The API server's copy is at least as new as our write, and its Ready is not what we wrote. */
export function overwrittenByOthers(pod: Pod, written: WrittenStatus | undefined): boolean {
  if (!written) return false;
  const rv = Number(pod.metadata.resourceVersion ?? '0');
  if (!(rv >= Number(written.resourceVersion || Infinity))) return false;
  return readyOf(pod.status) !== readyOf(written.status);
}
