// The kubelet's static pods: it runs what the manifest directory says and publishes a mirror pod
// for each in the API server, so `kubectl get pods -n kube-system` shows them. The API server's
// copy never drives the static pod: a mirror pod that is deleted, being deleted or out of date is
// deleted (grace 0, uid precondition) and created again, and its status is the kubelet's view of
// the container. Every relist (PLEG, 1 s) and every change to a mirror pod re-syncs.
// mirrors pkg/kubelet/kubelet.go SyncPod (the "if kubetypes.IsStaticPod(pod)" block: delete an
// outdated mirror, create a missing one), pkg/kubelet/pod/mirror_client.go (CreateMirrorPod looks
// the Node's uid up for the ownerReference; DeleteMirrorPod) and pkg/kubelet/status (the status
// of a static pod is written onto its mirror pod).
import type { Node, Pod } from '../api/index.ts';
import type { Lister, RestClient } from '../client/index.ts';
import type { ProcessContext } from '../kernel/index.ts';
import { overwrittenByOthers, type WrittenStatus } from './status-writes.ts';
import {
  isCurrentMirrorOf, isMirrorPod, mirrorPodOf, staticPodFromManifest, staticPodStatus, type StaticContainerState, type StaticPodSource,
} from './static-pods.ts';

/** pleg.go: the generic PLEG relists the runtime every second. */
export const PLEG_RELIST_PERIOD_MS = 1000;
/** wait.go: cache.WaitForCacheSync checks every 100 ms. */
const CACHE_SYNC_POLL_MS = 100;

export interface MirrorPodDeps {
  client: RestClient;
  lister: Lister<Pod>;
  /** The pod informer has listed once (before that, a missing mirror may just not be seen yet). */
  synced(): boolean;
  source: StaticPodSource;
  nodeName: string;
  nodeIP: string;
}

interface StaticPodEntry {
  manifestName: string;
  /** The manifest object last read (a source that returns the same object has not changed it). */
  manifest: Pod;
  manifestText: string;
  pod: Pod;
}

export class MirrorPods {
  private readonly staticPods = new Map<string, StaticPodEntry>();
  private readonly inFlight = new Set<string>();
  /** The last status written, per mirror pod uid (the informer may not have caught up with it yet). */
  private readonly written = new Map<string, WrittenStatus>();
  /** Per mirror pod uid, the (mirror, container) state whose status is already written. */
  private readonly settled = new Map<string, SettledState>();
  private nodeUid: string | undefined;
  /** The manifest list read last (a source hands over a new list when the directory changed). */
  private lastManifests: readonly unknown[] | undefined;

  constructor(private readonly ctx: ProcessContext, private readonly d: MirrorPodDeps) {}

  start(): void {
    // the first sync waits for the pod informer the way cache.WaitForCacheSync does (a 100 ms poll)
    const waitForSync = this.ctx.every(CACHE_SYNC_POLL_MS, () => {
      if (!this.d.synced()) return;
      waitForSync.cancel();
      this.syncAll();
      this.ctx.every(PLEG_RELIST_PERIOD_MS, () => this.syncAll());
    }, 0);
  }

  /** The names of the static pods (their mirror pods' names). */
  names(): string[] {
    return [...this.staticPods.values()].map((e) => e.pod.metadata.name ?? '');
  }

  /** An informer event for a mirror pod of ours. */
  mirrorChanged(name: string): void {
    const entry = [...this.staticPods.values()].find((e) => e.pod.metadata.name === name);
    if (entry) this.sync(entry);
  }

  private syncAll(): void {
    this.readManifests();
    for (const entry of this.staticPods.values()) this.sync(entry);
  }

  /** The config source: a manifest that changed gets a new hash (and so a new mirror pod). */
  private readManifests(): void {
    const manifests = this.d.source.manifests();
    // the same list object as last time: no file changed (the relist's common case, every second)
    if (manifests === this.lastManifests) return;
    this.lastManifests = manifests;
    const seen = new Set<string>();
    for (const m of manifests) {
      seen.add(m.file);
      const known = this.staticPods.get(m.file);
      // the text comparison (the file's content) runs only when the source hands over a new object
      if (known?.manifest === m.pod) continue;
      const text = JSON.stringify(m.pod);
      if (known?.manifestText === text) {
        known.manifest = m.pod;
        continue;
      }
      this.staticPods.set(m.file, { manifestName: m.pod.metadata.name ?? '', manifest: m.pod, manifestText: text, pod: staticPodFromManifest(m, this.d.nodeName, this.ctx.now()) });
    }
    for (const file of [...this.staticPods.keys()]) if (!seen.has(file)) this.staticPods.delete(file);
  }

  private sync(entry: StaticPodEntry): void {
    const name = entry.pod.metadata.name ?? '';
    if (!this.ctx.isLive() || !this.d.synced() || this.inFlight.has(name)) return;
    const mirror = this.d.lister.get(entry.pod.metadata.namespace ?? '', name);
    if (mirror && !isMirrorPod(mirror)) return; // an ordinary pod holds the name: creating ours fails until it goes
    if (!mirror) return this.create(entry.pod);
    if (!isCurrentMirrorOf(mirror, entry.pod)) return this.delete(mirror);
    this.writeStatus(mirror, entry);
  }

  private create(staticPod: Pod): void {
    const name = staticPod.metadata.name ?? '';
    if (this.nodeUid === undefined) return this.lookUpNode(() => this.syncAll());
    this.inFlight.add(name);
    const body = mirrorPodOf(staticPod, { name: this.d.nodeName, uid: this.nodeUid });
    this.d.client.request({ verb: 'create', group: '', resource: 'pods', namespace: staticPod.metadata.namespace ?? '', body }, (res) => {
      if (!this.ctx.isLive()) return;
      this.inFlight.delete(name);
      if (res.code !== 201) return;
      this.ctx.trace('kubelet.mirror-pod-created', name);
      const entry = [...this.staticPods.values()].find((e) => e.pod.metadata.name === name);
      if (entry) this.writeStatus(res.body as Pod, entry);
    });
  }

  private lookUpNode(then: () => void): void {
    const name = this.d.nodeName;
    if (this.inFlight.has(`node/${name}`)) return;
    this.inFlight.add(`node/${name}`);
    this.d.client.request({ verb: 'get', group: '', resource: 'nodes', name }, (res) => {
      if (!this.ctx.isLive()) return;
      this.inFlight.delete(`node/${name}`);
      if (res.code !== 200) return;
      this.nodeUid = (res.body as Node).metadata.uid ?? '';
      then();
    });
  }

  /** DeleteMirrorPod: at once, and only the instance we looked at. */
  private delete(mirror: Pod): void {
    const m = mirror.metadata;
    const name = m.name ?? '';
    this.inFlight.add(name);
    this.d.client.request({
      verb: 'delete', group: '', resource: 'pods', namespace: m.namespace ?? '', name,
      query: { gracePeriodSeconds: 0 },
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: m.uid ?? '' } },
    }, (res) => {
      if (!this.ctx.isLive()) return;
      this.inFlight.delete(name);
      this.written.delete(m.uid ?? '');
      this.settled.delete(m.uid ?? '');
      if (res.code === 200) this.ctx.trace('kubelet.mirror-pod-deleted', name);
    });
  }

  private writeStatus(mirror: Pod, entry: StaticPodEntry): void {
    const uid = mirror.metadata.uid ?? '';
    const state = this.d.source.containerState(entry.manifestName);
    // PLEG: a relist that finds the same running container and the same mirror pod syncs nothing
    // (a stopped one is recomputed, as its back-off message moves with time)
    const settled = this.settled.get(uid);
    if (state.running && settled !== undefined && sameSettledState(settled, mirror, state)) return;
    const last = overwrittenByOthers(mirror, this.written.get(uid)) ? undefined : this.written.get(uid);
    // conditions keep their transition times from what we wrote last, even before the informer shows it
    const base = last ? { ...mirror, status: last.status } : mirror;
    const status = staticPodStatus(base, entry.pod, state, this.d.nodeIP, this.ctx.now());
    const text = JSON.stringify(status);
    if (last?.text === text) {
      if (state.running) this.settled.set(uid, settledStateOf(mirror, state));
      return;
    }
    this.settled.delete(uid);
    const name = mirror.metadata.name ?? '';
    this.inFlight.add(name);
    this.d.client.request({
      verb: 'patch', group: '', resource: 'pods', subresource: 'status', namespace: mirror.metadata.namespace ?? '', name,
      body: { metadata: { uid }, status }, patchType: 'application/merge-patch+json',
    }, (res) => {
      if (!this.ctx.isLive()) return;
      this.inFlight.delete(name);
      if (res.code === 200) this.written.set(uid, { text, status, resourceVersion: (res.body as Pod).metadata.resourceVersion ?? '' });
    });
  }
}

/** What a running static pod's written status depends on: the mirror's version and the container's record. */
interface SettledState {
  resourceVersion: string | undefined;
  ready: boolean;
  restartCount: number;
  startedAtMs: number;
  previous: StaticContainerState['previous'];
}

function settledStateOf(mirror: Pod, state: StaticContainerState): SettledState {
  return { resourceVersion: mirror.metadata.resourceVersion, ready: state.ready, restartCount: state.restartCount, startedAtMs: state.startedAtMs, previous: state.previous };
}

/** Compared field by field (the relist asks every second for each static pod; a key string per ask was garbage). */
function sameSettledState(s: SettledState, mirror: Pod, state: StaticContainerState): boolean {
  return s.resourceVersion === mirror.metadata.resourceVersion && s.ready === state.ready && s.restartCount === state.restartCount
    && s.startedAtMs === state.startedAtMs && s.previous?.startedAtMs === state.previous?.startedAtMs
    && s.previous?.finishedAtMs === state.previous?.finishedAtMs;
}
