// Which pod and container a command that attaches to one (logs, exec) works on: a workload's first
// pod (polymorphichelpers attachablePodForObject) and the pod's default container (podcmd
// FindOrDefaultContainerByName, with the kubectl.kubernetes.io/default-container annotation).
import type { LabelSelector, Pod, ResourceInfo } from '../../../api/index.ts';
import { formatLabelSelector, lookupResource } from '../../../api/index.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import type { ObjectList } from '../transport.ts';

/** polymorphichelpers.attachablePodForObject: the workload's first pod by name, noting how many matched. */
export function firstPodOf(ctx: Ctx, owner: ResourceInfo, name: string, then: (podName: string | undefined) => void): void {
  ctx.request({ verb: 'get', resource: gvr(owner), namespace: ctx.namespace, name }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return then(undefined);
    }
    const selector = formatLabelSelector((res.body as { spec?: { selector?: LabelSelector } }).spec?.selector);
    ctx.request({ verb: 'list', resource: gvr(lookupResource('pods')!), namespace: ctx.namespace, query: { labelSelector: selector } }, (list) => {
      const items = list.ok ? ((list.body as ObjectList).items as Pod[]) : [];
      const names = items.map((p) => p.metadata.name ?? '').sort();
      if (names.length === 0) {
        ctx.error('timed out waiting for the condition');
        return then(undefined);
      }
      if (names.length > 1) ctx.stderr += `Found ${names.length} pods, using pod/${names[0]}\n`;
      then(names[0]);
    });
  });
}

/** The kubectl.kubernetes.io/default-container annotation's container, else the first, named on stderr when there was a choice (unless quiet). */
export function defaultContainer(ctx: Ctx, pod: Pod, quiet = false): string {
  const names = pod.spec.containers.map((c) => c.name);
  const inits = pod.spec.initContainers ?? [];
  const preferred = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (preferred) {
    if (names.includes(preferred) || inits.some((c) => c.name === preferred)) return preferred;
    if (!quiet) ctx.stderr += `Default container name "${preferred}" not found in pod ${pod.metadata.name ?? ''}\n`;
  }
  if (!quiet && (names.length > 1 || inits.length > 0)) {
    // podcmd.AllContainerNames: containers, then init containers marked "(init)"
    const all = [...names, ...inits.map((c) => `${c.name} (init)`)];
    ctx.stderr += `Defaulted container "${names[0]}" out of: ${all.join(', ')}\n`;
  }
  return names[0] ?? '';
}
