// Table tests for the zone logic of the node lifecycle controller (zones.ts).
import { describe, expect, it } from 'vitest';
import type { Node, NodeCondition } from '../../api/index.ts';
import {
  RateLimitedTimedQueue, computeZoneState, decideDisruption, zoneKeyOf, zoneTaintingQPS, type ZoneState,
} from './zones.ts';

const ready = (status: 'True' | 'False' | 'Unknown'): NodeCondition => ({ type: 'Ready', status });
const many = (n: number, status: 'True' | 'False' | 'Unknown') => Array.from({ length: n }, () => ready(status));

describe('zoneKeyOf (GetZoneKey)', () => {
  const node = (labels: Record<string, string>): Node => ({ metadata: { name: 'n', labels } });
  it.each([
    [{}, ''],
    [{ 'topology.kubernetes.io/zone': 'a' }, ':\x00:a'],
    [{ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'a' }, 'r:\x00:a'],
    // the deprecated beta labels win when both are there
    [{ 'failure-domain.beta.kubernetes.io/zone': 'old', 'topology.kubernetes.io/zone': 'new' }, ':\x00:old'],
  ])('%j -> %j', (labels, key) => {
    expect(zoneKeyOf(node(labels))).toBe(key);
  });
});

describe('computeZoneState (ComputeZoneState, --unhealthy-zone-threshold 0.55)', () => {
  it.each<[string, (NodeCondition | undefined)[], number, ZoneState]>([
    ['all ready', many(3, 'True'), 0, 'Normal'],
    ['none ready', many(2, 'Unknown'), 2, 'FullDisruption'],
    ['a node without a Ready condition counts as not ready', [undefined], 1, 'FullDisruption'],
    ['two of three not ready: not more than 2 nodes', [...many(2, 'False'), ready('True')], 2, 'Normal'],
    ['three of five not ready: 60% >= 55%', [...many(3, 'Unknown'), ...many(2, 'True')], 3, 'PartialDisruption'],
    ['three of six not ready: 50% < 55%', [...many(3, 'Unknown'), ...many(3, 'True')], 3, 'Normal'],
    ['eleven of twenty: exactly 55%', [...many(11, 'False'), ...many(9, 'True')], 11, 'PartialDisruption'],
  ])('%s', (_name, conditions, notReady, state) => {
    expect(computeZoneState(conditions)).toEqual({ notReady, state });
  });
});

describe('zoneTaintingQPS (setLimiterInZone)', () => {
  it.each<[ZoneState, number, number]>([
    ['Normal', 3, 0.1],
    ['Initial', 3, 0.1],
    ['PartialDisruption', 50, 0], // small zone: stop (ReducedQPSFunc)
    ['PartialDisruption', 51, 0.01], // large zone: --secondary-node-eviction-rate
    ['FullDisruption', 3, 0.1], // HealthyQPSFunc, while some other zone is not fully disrupted
  ])('%s with %i nodes -> %d per second', (state, size, qps) => {
    expect(zoneTaintingQPS(state, size)).toBe(qps);
  });
});

describe('RateLimitedTimedQueue', () => {
  const drain = (q: RateLimitedTimedQueue, nowMs: number): string[] => {
    const out: string[] = [];
    q.try(nowMs, (v) => (out.push(v), true));
    return out;
  };

  it('takes one node at once, then one per 10 s at 0.1 per second, in the order they came', () => {
    const q = new RateLimitedTimedQueue(0.1, 0);
    for (const n of ['b', 'a', 'c']) q.add(n, 0);
    expect(drain(q, 0)).toEqual(['b']);
    expect(drain(q, 9_999)).toEqual([]);
    expect(drain(q, 10_000)).toEqual(['a']);
    expect(drain(q, 20_000)).toEqual(['c']);
  });

  it('a node done stays in the set: it is not queued again until removed', () => {
    const q = new RateLimitedTimedQueue(0.1, 0);
    q.add('a', 0);
    expect(drain(q, 0)).toEqual(['a']);
    expect(q.add('a', 1_000)).toBe(false);
    expect(q.remove('a')).toBe(true);
    expect(q.add('a', 1_000)).toBe(true);
  });

  it('a limiter swapped to 0 takes nothing; swapped back, a drained bucket stays drained', () => {
    const q = new RateLimitedTimedQueue(0.1, 0);
    q.add('a', 0);
    q.add('b', 0);
    expect(drain(q, 0)).toEqual(['a']);
    q.swapLimiter(0, 1_000);
    expect(drain(q, 60_000)).toEqual([]);
    q.swapLimiter(0.1, 60_000);
    expect(drain(q, 60_000)).toEqual([]);
    expect(drain(q, 70_000)).toEqual(['b']);
  });

  it('a retry waits its delay, and a token is spent before the head is found not due (Try)', () => {
    const q = new RateLimitedTimedQueue(1, 0);
    q.add('a', 0);
    const tries: number[] = [];
    const act = (at: number) => () => (tries.push(at), at === 0 ? { retryAfterMs: 1_499 } : (true as const));
    q.try(0, act(0)); // due again at 1,500
    q.try(1_000, act(1_000)); // a token, spent on a head not yet due
    q.try(1_500, act(1_500)); // due, but the bucket holds half a token
    q.try(2_000, act(2_000));
    expect(tries).toEqual([0, 2_000]);
    expect(q.length).toBe(0);
  });
});

describe('decideDisruption (handleDisruption)', () => {
  const zones = (entries: [string, (NodeCondition | undefined)[]][]) => new Map(entries);
  const states = (entries: [string, ZoneState][]) => new Map(entries);

  it('the first pass moves a healthy zone from Initial to Normal', () => {
    const r = decideDisruption(states([]), zones([['', many(3, 'True')]]));
    expect(r.change).toEqual({ kind: 'zones', changed: [{ zone: '', state: 'Normal' }] });
    expect([...r.states]).toEqual([['', 'Normal']]);
  });

  it('every zone fully disrupted: enter master disruption mode, once', () => {
    const r = decideDisruption(states([['a', 'Normal'], ['b', 'Normal']]), zones([['a', many(2, 'Unknown')], ['b', many(1, 'Unknown')]]));
    expect(r.change).toEqual({ kind: 'enter-master-disruption' });
    expect([...r.states]).toEqual([['a', 'FullDisruption'], ['b', 'FullDisruption']]);
    expect(decideDisruption(r.states, zones([['a', many(2, 'Unknown')], ['b', many(1, 'Unknown')]])).change).toEqual({ kind: 'none' });
  });

  it('one zone fully disrupted while another is healthy is not master disruption', () => {
    const r = decideDisruption(states([['a', 'Normal'], ['b', 'Normal']]), zones([['a', many(2, 'Unknown')], ['b', many(2, 'True')]]));
    expect(r.change).toEqual({ kind: 'zones', changed: [{ zone: 'a', state: 'FullDisruption' }] });
  });

  it('a node Ready again after master disruption: exit it, every zone to its new state', () => {
    const r = decideDisruption(states([['a', 'FullDisruption'], ['b', 'FullDisruption']]), zones([['a', [ready('True'), ready('Unknown')]], ['b', many(1, 'Unknown')]]));
    expect(r.change).toEqual({ kind: 'exit-master-disruption' });
    expect([...r.states]).toEqual([['a', 'Normal'], ['b', 'FullDisruption']]);
  });

  it('a zone with no nodes left is forgotten', () => {
    const r = decideDisruption(states([['a', 'Normal'], ['gone', 'Normal']]), zones([['a', many(1, 'True')]]));
    expect([...r.states.keys()]).toEqual(['a']);
  });
});
