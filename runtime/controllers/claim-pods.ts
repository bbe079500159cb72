// PodControllerRefManager.ClaimPods (pkg/controller/controller_ref_manager.go), shared by the
// ReplicaSet and DaemonSet controllers: of the pods a controller may own (its own and the
// namespace's orphans, from filterPodsByOwner), keep its own that still match its selector,
// release its own that no longer match, and adopt matching orphans, unless it is being deleted.
import type { KubeObject, LabelSelector, OwnerReference, Pod } from '../api/index.ts';
import type { RestClient } from '../client/index.ts';
import { controllerOf, newControllerRef, selectorMatcher } from './controller-utils.ts';

export interface ClaimOwner {
  object: KubeObject;
  selector: LabelSelector | undefined;
  apiVersion: string;
  kind: string;
}

interface OwnerPatch {
  pod: Pod;
  refs: OwnerReference[];
  adopt: boolean;
}

/** The claim decisions, without the writes (ClaimObject per pod). */
export function planClaims(owner: ClaimOwner, pods: readonly Pod[]): { claimed: Pod[]; patches: OwnerPatch[] } {
  const uid = owner.object.metadata.uid;
  const deleting = owner.object.metadata.deletionTimestamp !== undefined;
  const selects = selectorMatcher(owner.selector);
  const claimed: Pod[] = [];
  const patches: OwnerPatch[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (ref && ref.uid !== uid) continue; // someone else's
    const matches = selects(pod.metadata.labels);
    const others = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    if (ref) {
      if (matches) claimed.push(pod);
      else if (!deleting) patches.push({ pod, refs: others, adopt: false });
      continue;
    }
    if (!matches || deleting || pod.metadata.deletionTimestamp) continue;
    patches.push({ pod, refs: [...others, newControllerRef(owner.object, owner.apiVersion, owner.kind)], adopt: true });
  }
  return { claimed, patches };
}

/** ClaimPods: plans, then patches the owner references (adopted pods count once the patch succeeds). */
export function claimPods(client: RestClient, owner: ClaimOwner, pods: readonly Pod[], done: (claimed: Pod[]) => void): void {
  const { claimed, patches } = planClaims(owner, pods);
  if (patches.length === 0) return done(claimed);
  let answered = 0;
  for (const p of patches) {
    const body = { metadata: { ownerReferences: p.refs, uid: p.pod.metadata.uid } };
    client.request({
      verb: 'patch', group: '', resource: 'pods', namespace: p.pod.metadata.namespace ?? '', name: p.pod.metadata.name ?? '',
      patchType: 'application/merge-patch+json', body,
    }, (res) => {
      if (p.adopt && res.code === 200) claimed.push(res.body as Pod);
      if (++answered === patches.length) done(claimed);
    });
  }
}
