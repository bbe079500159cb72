// Zones and the rate at which the node lifecycle controller may taint their nodes NoExecute.
// mirrors pkg/controller/nodelifecycle/node_lifecycle_controller.go (ComputeZoneState,
// handleDisruption, setLimiterInZone, HealthyQPSFunc, ReducedQPSFunc), pkg/controller/nodelifecycle/
// scheduler/rate_limited_queue.go (RateLimitedTimedQueue.Try, SwapLimiter) and
// k8s.io/component-helpers/node/topology (GetZoneKey). The point of it all: when many nodes of a
// zone go silent at once, the likelier cause is the control plane's own network, so evictions slow
// down (partial disruption) or stop (every zone fully disrupted: "master disruption mode").
import type { Node, NodeCondition } from '../../api/index.ts';

/** --node-eviction-rate: NoExecute taints per second per healthy zone. */
export const EVICTION_LIMITER_QPS = 0.1;
/** --secondary-node-eviction-rate: the rate in a partially disrupted zone of a large cluster. */
export const SECONDARY_EVICTION_LIMITER_QPS = 0.01;
/** --large-cluster-size-threshold: above this many nodes a zone counts as large. */
export const LARGE_CLUSTER_SIZE_THRESHOLD = 50;
/** --unhealthy-zone-threshold: the share of not-Ready nodes that makes a zone partially disrupted. */
export const UNHEALTHY_ZONE_THRESHOLD = 0.55;
/** scheduler.NodeEvictionPeriod: how often doNoExecuteTaintingPass runs. */
export const NODE_EVICTION_PERIOD_MS = 100;
/** Nodes with this label are left out of the zone's health (labelNodeDisruptionExclusion). */
export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** GetZoneKey: region and zone (beta labels first), "" when the node has neither. */
export function zoneKeyOf(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels['failure-domain.beta.kubernetes.io/zone'] ?? labels['topology.kubernetes.io/zone'] ?? '';
  const region = labels['failure-domain.beta.kubernetes.io/region'] ?? labels['topology.kubernetes.io/region'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState: how many nodes are not Ready, and what that makes the zone. */
export function computeZoneState(readyConditions: readonly (NodeCondition | undefined)[]): { notReady: number; state: ZoneState } {
  const ready = readyConditions.filter((c) => c?.status === 'True').length;
  const notReady = readyConditions.length - ready;
  if (ready === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + ready) >= UNHEALTHY_ZONE_THRESHOLD) return { notReady, state: 'PartialDisruption' };
  return { notReady, state: 'Normal' };
}

/**
 * setLimiterInZone: a healthy zone taints at the eviction rate; a partially disrupted one at the
 * secondary rate if it is large, else not at all (ReducedQPSFunc); a fully disrupted one, while
 * some other zone is not, at the normal rate again (HealthyQPSFunc).
 */
export function zoneTaintingQPS(state: ZoneState, zoneSize: number): number {
  if (state === 'PartialDisruption') return zoneSize > LARGE_CLUSTER_SIZE_THRESHOLD ? SECONDARY_EVICTION_LIMITER_QPS : 0;
  return EVICTION_LIMITER_QPS;
}

/** flowcontrol.NewTokenBucketRateLimiter(qps, 1) as TryAccept sees it; qps <= 0 never accepts (NewFakeNeverRateLimiter). */
class TokenBucket {
  private tokens = 1;
  private lastMs: number;

  constructor(readonly qps: number, nowMs: number) {
    this.lastMs = nowMs;
  }

  tryAccept(nowMs: number): boolean {
    if (this.qps <= 0) return false;
    this.tokens = Math.min(1, this.tokens + ((nowMs - this.lastMs) / 1000) * this.qps);
    this.lastMs = nowMs;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

interface Timed {
  value: string;
  processAtMs: number;
  seq: number;
}

/**
 * RateLimitedTimedQueue over a UniqueQueue: node names waiting for their NoExecute taint, taken in
 * order while the zone's limiter accepts. A node done stays in the set (RemoveFromQueue), so it is
 * not queued again until `remove` (the node became reachable, or lost its taint) lets it back in.
 * `swapLimiter` keeps a drained bucket drained, as SwapLimiter does for a burst of 1.
 */
export class RateLimitedTimedQueue {
  private readonly members = new Set<string>();
  private readonly queued = new Map<string, Timed>();
  private limiter: TokenBucket;
  private seq = 0;

  constructor(qps: number, nowMs: number) {
    this.limiter = new TokenBucket(qps, nowMs);
  }

  get qps(): number {
    return this.limiter.qps;
  }

  /** Nodes waiting for their turn. */
  get length(): number {
    return this.queued.size;
  }

  /** UniqueQueue.Add: false when the node is already in the set. */
  add(value: string, nowMs: number): boolean {
    if (this.members.has(value)) return false;
    this.members.add(value);
    this.queued.set(value, { value, processAtMs: nowMs, seq: this.seq++ });
    return true;
  }

  /** UniqueQueue.Remove: out of the queue and the set; false when it was not in the set. */
  remove(value: string): boolean {
    if (!this.members.delete(value)) return false;
    this.queued.delete(value);
    return true;
  }

  swapLimiter(qps: number, nowMs: number): void {
    if (this.limiter.qps === qps) return;
    const next = new TokenBucket(qps, nowMs);
    if (qps > 0 && !this.limiter.tryAccept(nowMs)) next.tryAccept(nowMs);
    this.limiter = next;
  }

  /**
   * Try: while the limiter accepts, act on the head; `act` returns true when done (the node leaves
   * the queue but stays in the set), or a delay before it is tried again. As upstream, a token is
   * spent before the head's time is checked.
   */
  try(nowMs: number, act: (value: string) => true | { retryAfterMs: number }): void {
    for (let head = this.head(); head; head = this.head()) {
      if (!this.limiter.tryAccept(nowMs)) return;
      if (nowMs < head.processAtMs) return;
      const done = act(head.value);
      if (done === true) this.queued.delete(head.value);
      else head.processAtMs = nowMs + done.retryAfterMs + 1;
    }
  }

  private head(): Timed | undefined {
    let best: Timed | undefined;
    for (const t of this.queued.values()) {
      if (!best || t.processAtMs < best.processAtMs || (t.processAtMs === best.processAtMs && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

/** What handleDisruption decided for this pass. */
export type DisruptionChange =
  | { kind: 'enter-master-disruption' }
  | { kind: 'exit-master-disruption' }
  | { kind: 'zones'; changed: { zone: string; state: ZoneState }[] }
  | { kind: 'none' };

/**
 * handleDisruption's decision, pure: given last pass's states and this pass's Ready conditions per
 * zone, the new states and what the controller must do. Every zone fully disrupted now and not all
 * before: enter master disruption (untaint every node, stop all tainting); all were and some are
 * not now: exit it (fresh probe times for every node, each zone's limiter for its new state).
 */
export function decideDisruption(
  previous: ReadonlyMap<string, ZoneState>,
  zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
): { states: Map<string, ZoneState>; newStates: Map<string, ZoneState>; change: DisruptionChange } {
  const states = new Map(previous);
  const newStates = new Map<string, ZoneState>();
  let allAreFullyDisrupted = true;
  for (const [zone, conditions] of zoneConditions) {
    const { state } = computeZoneState(conditions);
    if (state !== 'FullDisruption') allAreFullyDisrupted = false;
    newStates.set(zone, state);
    if (!states.has(zone)) states.set(zone, 'Initial');
  }
  // zones with no nodes left are forgotten (upstream forgets those its random map walk meets
  // before the first zone not fully disrupted; here all of them, so the outcome is deterministic)
  for (const zone of [...states.keys()]) if (!zoneConditions.has(zone)) states.delete(zone);
  const allWereFullyDisrupted = [...states.values()].every((state) => state === 'FullDisruption');
  if (allAreFullyDisrupted && allWereFullyDisrupted) return { states, newStates, change: { kind: 'none' } };
  if (allAreFullyDisrupted) {
    for (const zone of states.keys()) states.set(zone, 'FullDisruption');
    return { states, newStates, change: { kind: 'enter-master-disruption' } };
  }
  if (allWereFullyDisrupted) {
    for (const zone of states.keys()) states.set(zone, newStates.get(zone) ?? 'Initial');
    return { states, newStates, change: { kind: 'exit-master-disruption' } };
  }
  const changed: { zone: string; state: ZoneState }[] = [];
  for (const [zone, state] of states) {
    const next = newStates.get(zone);
    if (next === undefined || next === state) continue;
    states.set(zone, next);
    changed.push({ zone, state: next });
  }
  return { states, newStates, change: changed.length ? { kind: 'zones', changed } : { kind: 'none' } };
}
