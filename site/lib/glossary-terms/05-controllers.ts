// Glossary terms introduced by chapter 5, "Controllers, the loops that never sleep".
import type { GlossaryEntry } from '../glossary.ts';

const ch = (anchor: string) => ({ chapter: '05-controllers', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'level-triggered',
    term: 'Level-triggered',
    definition:
      'A controller design that acts on the current state rather than on the change that announced it: an event only says which object to look at, and the reconcile reads everything afresh. A controller that missed events still converges, because the level it reads is the same.',
    see: [ch('level-triggered-not-edge-triggered')],
  },
  {
    id: 'reflector',
    term: 'Reflector',
    definition:
      'The part of a client-go informer that lists a kind of object, then watches it from the list’s `resourceVersion`, feeding every change into the informer’s cache. When the watch ends it resumes from the last version seen, and relists if that version is too old.',
    see: [ch('informers-list-watch-cache')],
  },
  {
    id: 'relist',
    term: 'Relist',
    definition:
      'A fresh list that replaces an informer’s cache, made when the API server answers a watch with `410 Gone` (the requested version has been compacted away). Objects that vanished while the watch was behind reach the handlers as deletions.',
    see: [ch('informers-list-watch-cache')],
  },
  {
    id: 'resync',
    term: 'Resync (informer)',
    definition:
      'A periodic replay of every object already in an informer’s cache to its update handlers, without any request to the API server. kube-controller-manager picks the period at random between 12 and 24 hours.',
    see: [ch('informers-list-watch-cache')],
  },
  {
    id: 'shared-informer',
    term: 'Shared informer',
    definition:
      'One informer per kind of object, shared by every controller in a process: one watch and one cache of Pods serve the ReplicaSet controller, the Deployment controller, the garbage collector and the rest, each with its own handlers.',
    see: [ch('informers-list-watch-cache')],
  },
  {
    id: 'work-queue',
    term: 'Work queue',
    definition:
      'The queue of object keys (`namespace/name`) between a controller’s event handlers and its workers. It drops a key that is already waiting, never hands one key to two workers at once, and retries failed keys with per-key exponential backoff.',
    see: [ch('work-queues-keys-once-at-a-time')],
  },
  {
    id: 'expectations',
    term: 'Expectations (controller)',
    definition:
      'The ReplicaSet controller’s record of the Pod creations and deletions it has requested but not yet seen in its cache. While any are outstanding (for up to five minutes) it does not create or delete again, so a lagging cache cannot make it act twice.',
    see: [ch('expectations-not-creating-twice')],
  },
  {
    id: 'garbage-collector',
    term: 'Garbage collector',
    definition:
      'The loop in kube-controller-manager that follows owner references: it keeps a graph of owners and dependents, and deletes (or orphans) the dependents of an owner that no longer exists.',
    see: [ch('owner-references-and-the-garbage-collector')],
  },
  {
    id: 'cascading-deletion',
    term: 'Cascading deletion',
    definition:
      'Deleting an owner together with its dependents through the garbage collector. Background (kubectl’s default) deletes the owner first, foreground keeps the owner until its blocking dependents are gone, and orphan leaves the dependents running without an owner.',
    see: [ch('owner-references-and-the-garbage-collector')],
  },
  {
    id: 'self-healing',
    term: 'Self-healing',
    definition:
      'The cluster restoring what its objects describe after a loss, with no recovery procedure: a deleted or evicted Pod leaves a ReplicaSet short, and its controller creates a replacement. It is ordinary reconciliation, applied to a state nobody planned.',
    see: [ch('self-healing-is-just-reconciling')],
  },
  {
    id: 'node-lifecycle-controller',
    term: 'Node lifecycle controller',
    definition:
      'The controller that watches node heartbeats (the kubelet’s Lease renewals): after `--node-monitor-grace-period` (50 s) of silence it marks the node `NotReady` and taints it, and the taint eviction controller deletes its Pods once their 300 s toleration runs out.',
    see: [ch('self-healing-is-just-reconciling')],
  },
  {
    id: 'declarative-configuration',
    term: 'Declarative configuration',
    definition:
      'Describing the objects that should exist and letting controllers make it so, as `kubectl apply` does, instead of issuing steps such as create or scale. Applying the same file twice changes nothing the second time.',
    see: [ch('declarative-intent')],
  },
];
