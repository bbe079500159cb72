// The scheduler's cache: the nodes and the pods bound (or about to be bound) to them, turned into
// the Snapshot a scheduling cycle reads. mirrors pkg/scheduler/backend/cache/cache.go (AddPod,
// RemovePod, AssumePod, ForgetPod, FinishBinding, AddNode, UpdateNode, RemoveNode,
// UpdateSnapshot): an assumed pod counts on its node at once, before its binding is confirmed,
// and is replaced by the informer's copy when the bound pod arrives.
// Pod changes are applied to the snapshot in place; a node change rebuilds it on the next cycle
// (upstream patches per node generation; a rebuild costs O(nodes + pods), once per node change).
import type { Node, Pod } from '../../api/index.ts';
import { newPodInfo } from '../framework/pod-info.ts';
import { Snapshot } from '../framework/snapshot.ts';

const keyOf = (pod: Pod): string => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

interface PlacedPod {
  pod: Pod;
  nodeName: string;
  /** True until the informer shows the pod bound (cache.go podState.bindingFinished aside). */
  assumed: boolean;
}

export class SchedulerCache {
  private readonly nodes = new Map<string, Node>();
  private readonly pods = new Map<string, PlacedPod>();
  private snapshot: Snapshot | null = null;

  /** The snapshot for the next cycle; rebuilt only after a node changed. */
  updateSnapshot(): Snapshot {
    if (this.snapshot) return this.snapshot;
    const names = [...this.nodes.keys()].sort();
    const snap = Snapshot.build(names.map((n) => this.nodes.get(n)!));
    for (const placed of this.pods.values()) snap.assume(newPodInfo(placed.pod), placed.nodeName);
    this.snapshot = snap;
    return snap;
  }

  get nodeCount(): number {
    return this.nodes.size;
  }

  addOrUpdateNode(node: Node): void {
    this.nodes.set(node.metadata.name ?? '', node);
    this.snapshot = null;
  }

  removeNode(name: string): void {
    if (this.nodes.delete(name)) this.snapshot = null;
  }

  /** AssumePod: the scheduler chose `nodeName`; account the pod there before the bind returns. */
  assume(pod: Pod, nodeName: string): void {
    const key = keyOf(pod);
    if (this.pods.has(key))
      throw new Error(`invariant violated: pod ${key} is already in the scheduler cache`);
    this.place(key, { pod, nodeName, assumed: true });
  }

  /** ForgetPod: the binding failed; the assumed pod no longer counts. */
  forget(pod: Pod): void {
    const key = keyOf(pod);
    const placed = this.pods.get(key);
    if (placed?.assumed) this.unplace(key, placed);
  }

  isAssumed(pod: Pod): boolean {
    return this.pods.get(keyOf(pod))?.assumed ?? false;
  }

  /** AddPod/UpdatePod from the informer: a bound, running pod (replaces an assumed copy). */
  addOrUpdateBoundPod(pod: Pod): void {
    const key = keyOf(pod);
    const nodeName = pod.spec.nodeName ?? '';
    const placed = this.pods.get(key);
    if (isTerminal(pod) || nodeName === '') {
      if (placed) this.unplace(key, placed);
      return;
    }
    if (placed && placed.pod === pod && !placed.assumed) return;
    // cache.go updatePod is RemovePod(old) then AddPod(new): the snapshot's PodInfo then reads the
    // pod's current labels (pod affinity and topology spread count them) and keeps no stale copy
    if (placed) this.unplace(key, placed);
    this.place(key, { pod, nodeName, assumed: false });
  }

  /** RemovePod from the informer: the pod is gone. */
  removePod(pod: Pod): void {
    const key = keyOf(pod);
    const placed = this.pods.get(key);
    if (placed) this.unplace(key, placed);
  }

  private place(key: string, placed: PlacedPod): void {
    this.pods.set(key, placed);
    this.snapshot?.assume(newPodInfo(placed.pod), placed.nodeName);
  }

  private unplace(key: string, placed: PlacedPod): void {
    this.pods.delete(key);
    this.snapshot?.forget(
      placed.pod.metadata.namespace ?? '',
      placed.pod.metadata.name ?? '',
      placed.nodeName,
    );
  }
}
