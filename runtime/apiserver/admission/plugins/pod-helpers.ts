// Small shared helpers for the plugins that look inside pods.
import type { Container, Pod } from '../../../api/index.ts';
import type { AdmissionAttributes } from '../types.ts';

/** The pod being created, or undefined if this request is not a pod create (or a subresource). */
export function podBeingCreated(a: AdmissionAttributes): Pod | undefined {
  if (a.operation !== 'CREATE' || a.subresource || a.resource.group !== '' || a.resource.resource !== 'pods') return undefined;
  const pod = a.object as Pod | undefined;
  if (!pod || typeof pod.spec !== 'object' || pod.spec === null) return undefined;
  return pod;
}

/**
 * A list field holding something else (Go's decoder would have refused the request): the plugins
 * leave such a pod alone, so that validation refuses it rather than a plugin replacing the value.
 */
export const notAList = (v: unknown): boolean => v !== undefined && v !== null && !Array.isArray(v);

export function containersOf(pod: Pod): Container[] {
  const out: Container[] = [];
  for (const list of [pod.spec.initContainers, pod.spec.containers]) {
    if (Array.isArray(list)) for (const c of list) if (typeof c === 'object' && c !== null) out.push(c);
  }
  return out;
}
