// Glossary terms introduced by chapter 1 (content/01-journey.mdx) beyond those in ../glossary.ts.
import type { GlossaryEntry } from '../glossary.ts';

const journey = (anchor: string) => ({ chapter: '01-journey', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'api-discovery',
    term: 'API discovery',
    definition:
      'The endpoints (`/api`, `/apis`) where the API server lists its API groups, versions and resources. `kubectl` reads them to turn an `apiVersion` and `kind` into a URL such as `/apis/apps/v1/namespaces/default/deployments`, and caches the answer; `kubectl api-resources` prints it.',
    see: [journey('kubectl-finds-the-api-server')],
  },
  {
    id: 'pod-condition',
    term: 'Pod condition',
    definition:
      'One milestone in a Pod’s status, true or false with a timestamp: PodScheduled, PodReadyToStartContainers (sandbox and network ready, a pod condition since Kubernetes 1.29), Initialized, ContainersReady and Ready. The kubelet sets all but PodScheduled, which the binding sets.',
    see: [journey('status-flows-back')],
  },
];
