// Glossary terms introduced by chapter 6, "Deployments and rollouts, step by step".
import type { GlossaryEntry } from '../glossary.ts';

const ch = (anchor: string) => ({ chapter: '06-deployments', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'rolling-update',
    term: 'Rolling update',
    definition:
      'The default Deployment strategy: after a change to the Pod template, the Deployment controller creates a ReplicaSet for the new template and shifts replicas to it step by step, within the bounds set by maxSurge and maxUnavailable.',
    see: [ch('rolling-updates-maxsurge-and-maxunavailable')],
  },
  {
    id: 'max-surge',
    term: 'maxSurge',
    definition:
      'How many Pods above `replicas` a rolling update may run at once, as a number or a percentage (25% by default). A percentage is rounded up, so the update can always add at least one Pod.',
    see: [ch('rolling-updates-maxsurge-and-maxunavailable')],
  },
  {
    id: 'max-unavailable',
    term: 'maxUnavailable',
    definition:
      'How many Pods below `replicas` may be unavailable during a rolling update, as a number or a percentage (25% by default). A percentage is rounded down, so a Deployment of three keeps all three available.',
    see: [ch('rolling-updates-maxsurge-and-maxunavailable')],
  },
  {
    id: 'pod-template-hash',
    term: 'pod-template-hash',
    definition:
      'A label the Deployment controller derives from a hash of the Pod template and adds to a ReplicaSet’s name, selector and Pod labels. It keeps the ReplicaSets of different versions from selecting each other’s Pods.',
    see: [ch('the-pod-template-hash-label')],
  },
  {
    id: 'rollout-revision',
    term: 'Revision (rollout)',
    definition:
      'The number in a ReplicaSet’s `deployment.kubernetes.io/revision` annotation, one per Pod template a Deployment has run. `kubectl rollout history` lists them; the Deployment keeps `revisionHistoryLimit` old ReplicaSets (10 by default) scaled to zero.',
    see: [ch('history-and-rollback')],
  },
  {
    id: 'rollback',
    term: 'Rollback (rollout undo)',
    definition:
      'Restoring an earlier revision’s Pod template with `kubectl rollout undo`. The Deployment controller scales the matching old ReplicaSet back up through a normal rolling update and gives it the next revision number.',
    see: [ch('history-and-rollback')],
  },
  {
    id: 'progress-deadline',
    term: 'Progress deadline',
    definition:
      'How long a Deployment may go without progress before its `Progressing` condition turns `False` with reason `ProgressDeadlineExceeded` (`progressDeadlineSeconds`, 600 by default). The controller only reports it; it does not roll back.',
    see: [ch('a-rollout-that-cannot-pull-its-image')],
  },
  {
    id: 'failed-scheduling',
    term: 'FailedScheduling',
    definition:
      'The warning event the scheduler records when no node passes its filters, with a count per reason such as `3 Insufficient cpu`. The Pod stays `Pending` with no node until the cluster changes.',
    see: [ch('stuck-at-2-of-3')],
  },
  {
    id: 'image-pull-backoff',
    term: 'ErrImagePull and ImagePullBackOff',
    definition:
      'The waiting reasons of a container whose image could not be pulled: `ErrImagePull` right after a failed attempt, then `ImagePullBackOff` while the kubelet waits before retrying (10 s, doubling up to five minutes). The `Failed` event says why, for instance `not found`.',
    see: [ch('a-rollout-that-cannot-pull-its-image')],
  },
  {
    id: 'image-cache',
    term: 'Cached image',
    definition:
      'An image already stored on a node. With `imagePullPolicy: IfNotPresent` the kubelet skips the pull and reports "already present on machine", which removes the slowest and most variable step of starting a Pod.',
    see: [ch('under-ten-seconds-with-a-cached-image')],
  },
];
