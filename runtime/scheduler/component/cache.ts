// The scheduler's cache: the nodes and the pods bound (or about to be bound) to them, turned into
// the Snapshot a scheduling cycle reads. mirrors pkg/scheduler/backend/cache/cache.go (AddPod,
// RemovePod, AssumePod, ForgetPod, FinishBinding, AddNode, UpdateNode, RemoveNode,
// UpdateSnapshot): an assumed pod counts on its node at once, before its binding is confirmed,
// and is replaced by the informer's copy when the bound pod arrives.
// Pod and node changes are applied to the snapshot in place, which stays in node name order
// (upstream patches per node generation); it is built once, on the first cycle.
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
  /** Keys of `pods` per node, in the same order. */
  private readonly podsByNode = new Map<string, Set<string>>();
  private snapshot: Snapshot | null = null;

  /** The snapshot for the next cycle; built once, then kept up to date in place. */
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

  /**
   * Node changes patch the snapshot in place (cache.go AddNode, UpdateNode, RemoveNode: only that
   * NodeInfo changes): at 5,000 nodes a status report lands every few milliseconds, and a rebuild
   * walks every node and pod.
   */
  addOrUpdateNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const known = this.nodes.has(name);
    this.nodes.set(name, node);
    if (!this.snapshot) return;
    if (known) {
      this.snapshot.updateNode(node);
      return;
    }
    this.snapshot.insertNode(node);
    // pods the informer showed bound here before the node itself arrived
    for (const key of this.podsByNode.get(name) ?? []) this.snapshot.assume(newPodInfo(this.pods.get(key)!.pod), name);
  }

  removeNode(name: string): void {
    if (this.nodes.delete(name)) this.snapshot?.removeNode(name);
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
    (this.podsByNode.get(placed.nodeName) ?? this.podsByNode.set(placed.nodeName, new Set()).get(placed.nodeName)!).add(key);
    this.snapshot?.assume(newPodInfo(placed.pod), placed.nodeName);
  }

  private unplace(key: string, placed: PlacedPod): void {
    this.pods.delete(key);
    const onNode = this.podsByNode.get(placed.nodeName);
    onNode?.delete(key);
    if (onNode?.size === 0) this.podsByNode.delete(placed.nodeName);
    this.snapshot?.forget(
      placed.pod.metadata.namespace ?? '',
      placed.pod.metadata.name ?? '',
      placed.nodeName,
    );
  }
}
