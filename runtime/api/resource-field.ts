// The downward API's resourceFieldRef: a container's limit or request as text, in units of the
// divisor, rounded up. mirrors pkg/api/v1/resource/helpers.go (ExtractContainerResourceValue,
// convertResourceCPUToString, convertResourceMemoryToString) and the kubelet's
// defaultPodLimitsForDownwardAPI (kubelet_resources.go): a limit the container does not set reads
// as the node's allocatable amount, so "limits.memory" always says how much the process may use.
import { parseQuantity, type Quantity } from './resource/quantity.ts';
import type { Container, Pod } from './types/core.ts';

export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: string;
}

type Value = { ok: true; value: string } | { ok: false; error: string };

/** Resources MergeContainerResourceLimits fills from the node when the container sets no limit. */
const NODE_DEFAULTED = ['cpu', 'memory', 'ephemeral-storage'];

function quantity(text: string | undefined): Quantity | undefined {
  if (text === undefined) return undefined;
  const q = parseQuantity(text);
  return q.ok ? q.quantity : undefined;
}

/**
 * The value of `selector` for `container` of `pod` (or the container it names), with limits the
 * container leaves unset taken from `allocatable` (the node's status.allocatable).
 */
export function containerResourceValue(selector: ResourceFieldSelector, pod: Pod, container: Container, allocatable: Readonly<Record<string, string>> = {}): Value {
  let target = container;
  if (selector.containerName) {
    const named = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === selector.containerName);
    if (!named) return { ok: false, error: `container ${selector.containerName} not found` };
    target = named;
  }
  const divisor = quantity(selector.divisor);
  const by = divisor && divisor.milliValue() !== 0 ? divisor : quantity('1')!;
  const [kind, name] = splitResource(selector.resource);
  if (kind === undefined || !['cpu', 'memory', 'ephemeral-storage'].includes(name)) {
    return { ok: false, error: `unsupported container resource : ${selector.resource}` };
  }
  const set = kind === 'limits' ? target.resources?.limits : target.resources?.requests;
  let amount = set?.[name];
  if (amount === undefined && kind === 'limits' && NODE_DEFAULTED.includes(name)) amount = allocatable[name];
  const q = quantity(amount) ?? quantity('0')!;
  // cpu in millicores over the divisor's millicores; memory and storage in bytes over its bytes
  const n = name === 'cpu' ? Math.ceil(q.milliValue() / by.milliValue()) : Math.ceil(q.value() / by.value());
  return { ok: true, value: String(n) };
}

function splitResource(resource: string): [('limits' | 'requests') | undefined, string] {
  const dot = resource.indexOf('.');
  const kind = resource.slice(0, dot);
  return [kind === 'limits' || kind === 'requests' ? kind : undefined, resource.slice(dot + 1)];
}
