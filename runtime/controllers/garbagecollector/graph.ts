// The garbage collector's dependency graph: one node per object uid seen by any monitor, edges
// from ownerReferences. Owners referenced before they are observed get a "virtual" node that the
// collector verifies against the API server. Graph changes report which nodes to look at next.
// mirrors pkg/controller/garbagecollector/graph.go (node, owners, dependents, deletingDependents)
// and graph_builder.go (processGraphChanges, insertNode, removeNode, processTransitions,
// addUnblockedOwnersToDeleteQueue).
import type { KubeObject, OwnerReference } from '../../api/index.ts';

export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const ORPHAN_FINALIZER = 'orphan';

export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid: string;
}

export interface GraphNode {
  identity: ObjectIdentity;
  owners: OwnerReference[];
  /** uids of the nodes whose ownerReferences name this node. */
  dependents: Set<string>;
  /** Known only from someone's ownerReference, not yet seen by a monitor. */
  virtual: boolean;
  beingDeleted: boolean;
  /** deletionTimestamp and the foregroundDeletion finalizer: waiting for blocking dependents. */
  deletingDependents: boolean;
  /** metadata.finalizers as last observed (to see transitions). */
  finalizers: string[];
}

/** What a graph change asks the collector to do next. */
export interface GraphWork {
  attemptToDelete: string[];
  attemptToOrphan: string[];
}

export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** An add or update event from a monitor: `identity` says which kind the monitor watches. */
  observe(obj: KubeObject, identity: Omit<ObjectIdentity, 'uid' | 'name' | 'namespace'>): GraphWork {
    const work: GraphWork = { attemptToDelete: [], attemptToOrphan: [] };
    const uid = obj.metadata.uid ?? '';
    const owners = obj.metadata.ownerReferences ?? [];
    const fullIdentity: ObjectIdentity = {
      ...identity, name: obj.metadata.name ?? '', uid,
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    };
    let node = this.nodes.get(uid);
    const was = node && !node.virtual ? { deleting: node.beingDeleted, finalizers: node.finalizers } : { deleting: false, finalizers: [] };
    if (!node || node.virtual) {
      node = { identity: fullIdentity, owners: [], dependents: node?.dependents ?? new Set<string>(), virtual: false, beingDeleted: false, deletingDependents: false, finalizers: [] };
      this.nodes.set(uid, node);
    }
    this.updateOwners(node, owners, work);
    node.identity = fullIdentity;
    node.finalizers = [...(obj.metadata.finalizers ?? [])];
    node.beingDeleted = obj.metadata.deletionTimestamp !== undefined;
    // processTransitions: act when an object starts waiting for its dependents
    const starts = (finalizer: string): boolean => node.beingDeleted && node.finalizers.includes(finalizer) && !(was.deleting && was.finalizers.includes(finalizer));
    if (starts(ORPHAN_FINALIZER)) work.attemptToOrphan.push(uid);
    node.deletingDependents = node.beingDeleted && node.finalizers.includes(FOREGROUND_FINALIZER);
    if (starts(FOREGROUND_FINALIZER)) work.attemptToDelete.push(...node.dependents, uid);
    return work;
  }

  /** A delete event (real, or virtual: the collector found the object gone). */
  remove(uid: string): GraphWork {
    const work: GraphWork = { attemptToDelete: [], attemptToOrphan: [] };
    const node = this.nodes.get(uid);
    if (!node) return work;
    this.nodes.delete(uid);
    for (const ref of node.owners) {
      const owner = this.nodes.get(ref.uid);
      if (!owner) continue;
      owner.dependents.delete(uid);
      // a foreground-deleting owner may have just lost its last blocking dependent
      if (owner.deletingDependents) work.attemptToDelete.push(owner.identity.uid);
    }
    // the owner is gone: every dependent must be checked for dangling references
    work.attemptToDelete.push(...node.dependents);
    return work;
  }

  private updateOwners(node: GraphNode, owners: OwnerReference[], work: GraphWork): void {
    const uid = node.identity.uid;
    const before = new Map(node.owners.map((r) => [r.uid, r]));
    const after = new Map(owners.map((r) => [r.uid, r]));
    for (const [ownerUid, ref] of before) {
      const owner = this.nodes.get(ownerUid);
      const now = after.get(ownerUid);
      if (!now) owner?.dependents.delete(uid);
      // removed or unblocked references may let a foreground-deleting owner finish
      const unblocked = !now || (ref.blockOwnerDeletion === true && now.blockOwnerDeletion !== true);
      if (unblocked && owner?.deletingDependents) work.attemptToDelete.push(ownerUid);
    }
    for (const [ownerUid, ref] of after) {
      if (before.has(ownerUid)) continue;
      let owner = this.nodes.get(ownerUid);
      if (!owner) {
        owner = { identity: identityFromRef(ref, node.identity.namespace), owners: [], dependents: new Set(), virtual: true, beingDeleted: false, deletingDependents: false, finalizers: [] };
        this.nodes.set(ownerUid, owner);
        work.attemptToDelete.push(ownerUid); // verify the owner exists
      }
      owner.dependents.add(uid);
    }
    node.owners = owners.map((r) => ({ ...r }));
  }

  /** Dependents whose reference to `owner` has blockOwnerDeletion: true (blockingDependents). */
  blockingDependents(owner: GraphNode): GraphNode[] {
    const out: GraphNode[] = [];
    for (const depUid of owner.dependents) {
      const dep = this.nodes.get(depUid);
      if (dep?.owners.some((r) => r.uid === owner.identity.uid && r.blockOwnerDeletion === true)) out.push(dep);
    }
    return out;
  }
}

/** A virtual node's identity: namespaced like its dependent (the collector checks the kind's scope). */
function identityFromRef(ref: OwnerReference, namespace: string | undefined): ObjectIdentity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, ...(namespace ? { namespace } : {}) };
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}
