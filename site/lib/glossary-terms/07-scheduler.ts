// Glossary terms introduced by chapter 7 (content/07-scheduler.mdx) beyond those in ../glossary.ts.
import type { GlossaryEntry } from '../glossary.ts';

const scheduler = (anchor: string) => ({ chapter: '07-scheduler', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'scheduling-queue',
    term: 'Scheduling queue',
    definition:
      'Where Pods without a node wait for kube-scheduler: an active queue ordered by priority, a backoff queue for Pods that failed recently (1 s doubling to 10 s), and the unschedulable Pods, parked until a cluster event could help them or for 5 minutes at most.',
    see: [scheduler('the-scheduling-queue')],
  },
  {
    id: 'scheduling-cycle',
    term: 'Scheduling cycle and binding cycle',
    definition:
      'The two halves of one scheduling attempt. The scheduling cycle (filter, score, pick a node, reserve) runs for one Pod at a time; the binding cycle writes the result through the API server in the background while the next Pod is considered.',
    see: [scheduler('the-scheduling-queue')],
  },
  {
    id: 'allocatable',
    term: 'Allocatable',
    definition:
      'The share of a node’s CPU, memory, storage and Pod slots available to Pods: capacity minus what is reserved for the system and the kubelet. The scheduler compares the sum of requests on a node with this number, never with actual usage.',
    see: [scheduler('resources-noderesourcesfit'), scheduler('requests-not-usage')],
  },
  {
    id: 'cordon',
    term: 'Cordon',
    definition:
      'Marking a node unschedulable (`kubectl cordon` sets `spec.unschedulable: true`), so the `NodeUnschedulable` filter keeps new Pods off it. Pods already running there stay; `kubectl uncordon` reopens the node.',
    see: [scheduler('cordoned-nodes-nodeunschedulable')],
  },
  {
    id: 'node-affinity',
    term: 'Node selector and node affinity',
    definition:
      'Rules in a Pod that choose nodes by their labels. A `nodeSelector` or a `requiredDuringScheduling` affinity term is a hard filter; `preferredDuringScheduling` terms only add weight to matching nodes at scoring time.',
    see: [scheduler('labels-nodeaffinity'), scheduler('the-default-score-plugins-and-their-weights')],
  },
  {
    id: 'least-allocated',
    term: 'LeastAllocated',
    definition:
      'The default scoring strategy of the `NodeResourcesFit` plugin: each resource scores `(allocatable - requested) * 100 / allocatable` and CPU and memory are averaged, so emptier nodes win. Containers without requests count as 100m CPU and 200Mi memory in this sum.',
    see: [scheduler('the-default-score-plugins-and-their-weights'), scheduler('reading-one-decision')],
  },
  {
    id: 'balanced-allocation',
    term: 'BalancedAllocation',
    definition:
      'The `NodeResourcesBalancedAllocation` score plugin: it favours nodes whose requested fractions of CPU and memory would stay close to each other, scoring `(1 - standard deviation) * 100`.',
    see: [scheduler('the-default-score-plugins-and-their-weights')],
  },
  {
    id: 'normalize-score',
    term: 'NormalizeScore',
    definition:
      'An optional step of a score plugin that rescales its raw scores into 0 to 100 after every node is scored, for example dividing by the best score, or reversing the scale when fewer is better. Plugins without it must return 0 to 100 directly; the weights are applied afterwards.',
    see: [scheduler('normalizing-and-weighting')],
  },
  {
    id: 'plugin-weight',
    term: 'Score plugin weight',
    definition:
      'The factor a score plugin’s normalized score is multiplied by before the per-node sum. In the default profile: TaintToleration 3, NodeAffinity, PodTopologySpread and InterPodAffinity 2, NodeResourcesFit, BalancedAllocation and ImageLocality 1.',
    see: [scheduler('the-default-score-plugins-and-their-weights')],
  },
  {
    id: 'priority-class',
    term: 'PriorityClass',
    definition:
      'A cluster-wide object that names a priority value; a Pod that sets `priorityClassName` gets that value in `spec.priority`. Higher-priority Pods are scheduled first and may preempt lower-priority ones.',
    see: [scheduler('preemption-making-room-for-what-matters-more')],
  },
  {
    id: 'preemption',
    term: 'Preemption',
    definition:
      'What the scheduler does when a Pod fits nowhere: it looks for a node where evicting Pods of lower priority would make room, nominates that node for the Pod, and deletes the victims gracefully. The Pod is bound once the room is actually free.',
    see: [scheduler('preemption-making-room-for-what-matters-more')],
  },
  {
    id: 'nominated-node',
    term: 'Nominated node',
    definition:
      'The node preemption chose for a Pod, recorded in `status.nominatedNodeName` and shown in the NOMINATED NODE column. It holds the freed room for that Pod against Pods of lower or equal priority while the victims terminate.',
    see: [scheduler('preemption-making-room-for-what-matters-more')],
  },
];
