// kubectl's own pod resource arithmetic (k8s.io/kubectl/pkg/util/resource: PodRequestsAndLimits):
// the containers' requests and limits summed, init containers counted at their peak (a sidecar,
// an init container with restartPolicy Always, keeps running and adds to everything after it),
// pod overhead added to requests and to the limits that are set. describe node prints these.
import { Quantity, parseQuantity, type Container, type Pod } from '../../../api/index.ts';

export type QuantityList = Map<string, Quantity>;

function listOf(resources: Record<string, string> | undefined): QuantityList {
  const out: QuantityList = new Map();
  for (const [name, text] of Object.entries(resources ?? {})) {
    const q = parseQuantity(text);
    if (q.ok) out.set(name, q.quantity);
  }
  return out;
}

/** addResourceList: a name seen first is copied, later ones added. */
export function addList(into: QuantityList, add: QuantityList): void {
  for (const [name, q] of add) {
    const have = into.get(name);
    into.set(name, have === undefined ? q : have.add(q));
  }
}

/** maxResourceList: each name takes the larger of the two. */
function maxList(into: QuantityList, other: QuantityList): void {
  for (const [name, q] of other) {
    const have = into.get(name);
    if (have === undefined || q.cmp(have) > 0) into.set(name, q);
  }
}

const isSidecar = (c: Container): boolean => (c as Container & { restartPolicy?: string }).restartPolicy === 'Always';

function aggregate(pod: Pod, pick: (c: Container) => Record<string, string> | undefined): QuantityList {
  const total: QuantityList = new Map();
  for (const c of pod.spec.containers) addList(total, listOf(pick(c)));
  const sidecars: QuantityList = new Map();
  const initPeak: QuantityList = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const own = listOf(pick(c));
    let during: QuantityList;
    if (isSidecar(c)) {
      addList(total, own);
      addList(sidecars, own);
      during = sidecars;
    } else {
      during = new Map();
      addList(during, own);
      addList(during, sidecars);
    }
    maxList(initPeak, during);
  }
  maxList(total, initPeak);
  return total;
}

/** PodRequestsAndLimits (allocated resources of an in-place resize are not modelled). */
export function podRequestsAndLimits(pod: Pod): { requests: QuantityList; limits: QuantityList } {
  const requests = aggregate(pod, (c) => c.resources?.requests);
  const limits = aggregate(pod, (c) => c.resources?.limits);
  const overhead = listOf(pod.spec.overhead);
  addList(requests, overhead);
  for (const [name, q] of overhead) {
    const have = limits.get(name);
    if (have !== undefined) limits.set(name, have.add(q));
  }
  return { requests, limits };
}

const ZERO = Quantity.fromInt(0);

/** list[name], or a zero Quantity (Go's map lookup of a missing ResourceName). */
export function quantityOf(list: QuantityList | Record<string, string> | undefined, name: string): Quantity {
  if (list instanceof Map) return list.get(name) ?? ZERO;
  const text = list?.[name];
  if (text === undefined) return ZERO;
  const q = parseQuantity(text);
  return q.ok ? q.quantity : ZERO;
}

/**
 * int64(float64(used) / float64(total) * 100): truncated toward zero; Go turns the infinity or NaN
 * of a zero total into the smallest int64 on amd64.
 */
export function percentOf(used: number, total: number): string {
  const f = (used / total) * 100;
  return Number.isFinite(f) ? String(Math.trunc(f)) : '-9223372036854775808';
}
