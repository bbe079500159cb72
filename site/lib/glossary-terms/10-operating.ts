// Glossary terms introduced by chapter 10 (content/10-operating.mdx) beyond those in ../glossary.ts.
import type { GlossaryEntry } from '../glossary.ts';

const ops = (anchor: string) => ({ chapter: '10-operating', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'qos-class',
    term: 'QoS class',
    definition:
      'The class Kubernetes derives from a Pod’s requests and limits: Guaranteed (every container’s CPU and memory limits equal its requests), Burstable (some request or limit set), or BestEffort (none at all). Under memory pressure BestEffort Pods are evicted and OOM-killed first, Guaranteed ones last.',
    see: [ops('what-goes-wrong-without-them')],
  },
  {
    id: 'allocated-resources',
    term: 'Allocated resources',
    definition:
      'The section of `kubectl describe node` that adds up the requests and limits of the Pods bound to the node, as amounts and as percentages of its allocatable capacity. It is what the scheduler counts; Pods without requests add nothing to it, whatever they really use.',
    see: [ops('an-experiment-pods-the-scheduler-cannot-see')],
  },
  {
    id: 'drain',
    term: 'Drain',
    definition:
      '`kubectl drain` prepares a node for maintenance: it cordons the node so nothing new is scheduled there, then evicts its Pods through the Eviction API, which honours PodDisruptionBudgets. `kubectl uncordon` opens the node again.',
    see: [ops('drain-a-node-before-you-take-it-away')],
  },
  {
    id: 'pod-disruption-budget',
    term: 'PodDisruptionBudget',
    definition:
      'An object that limits how many of a set of Pods voluntary disruptions may take down at once (`minAvailable` or `maxUnavailable`). The API server refuses an eviction that would break it with 429 Too Many Requests; it does not protect against node failures.',
    see: [ops('drain-a-node-before-you-take-it-away')],
  },
  {
    id: 'apiserver-request-duration-seconds',
    term: 'apiserver_request_duration_seconds',
    definition:
      'The API server’s stable Prometheus histogram of request latency, labelled by verb, group, version, resource, subresource, scope and component, with buckets from 5 ms to 60 s. Its 99th percentile per verb and resource is the first number to watch as a cluster grows.',
    see: [ops('the-histogram'), ops('from-buckets-to-a-percentile')],
  },
  {
    id: 'histogram',
    term: 'Histogram (Prometheus)',
    definition:
      'A metric made of cumulative counters, one per upper bound (`_bucket` series with an `le` label, up to `+Inf`), plus `_sum` and `_count`. `histogram_quantile` estimates a percentile from the buckets’ rates by interpolating inside the bucket where it falls.',
    see: [ops('the-histogram'), ops('from-buckets-to-a-percentile')],
  },
  {
    id: 'drift',
    term: 'Drift',
    definition:
      'A difference between the live state of a system and its declared state, usually from a change made by hand. Terraform finds it at its next plan; a Kubernetes controller or a GitOps agent finds and reverts it as part of its continuous loop.',
    see: [ops('terraform-plan-is-the-diff'), ops('helm-argo-cd-and-flux-only-write-objects')],
  },
  {
    id: 'process-supervisor',
    term: 'Process supervisor',
    definition:
      'A program such as PM2 or systemd that keeps a declared set of processes running, restarting them when they exit. Its core is a reconcile loop: desired count minus running count, then start or stop processes, with a back-off against crash loops.',
    see: [ops('a-process-supervisor-is-a-reconcile-loop')],
  },
  {
    id: 'gitops',
    term: 'GitOps',
    definition:
      'Operating a system from a Git repository that holds its complete declared state: agents such as Argo CD or Flux pull the repository and continuously reconcile the cluster towards it. Changes are commits, rollbacks are reverts, and hand-made drift is undone.',
    see: [ops('gitops-the-desired-state-lives-in-git'), ops('helm-argo-cd-and-flux-only-write-objects')],
  },
];
