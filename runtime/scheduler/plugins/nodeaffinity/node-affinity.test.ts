// NodeAffinityArgs.addedAffinity, after node_affinity_test.go (TestNodeAffinity's "added
// affinity" cases, TestNodeAffinityPriority's "Added affinity"), validation_pluginargs_test.go
// (TestValidateNodeAffinityArgs) and the FitError a profile with it produces.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../kernel/index.ts';
import type { Pod } from '../../../api/index.ts';
import { MAX_NODE_SCORE } from '../../framework/interface.ts';
import { newPodInfo } from '../../framework/pod-info.ts';
import { Snapshot } from '../../framework/snapshot.ts';
import { buildSchedulerConfig } from '../../profile.ts';
import { scheduleOne } from '../../schedule-one.ts';
import { makeNode, makePod } from '../../testing-builders.ts';
import { ERR_REASON_ENFORCED, ERR_REASON_POD, newNodeAffinity, type NodeAffinityArgs } from './node-affinity.ts';

const zoneIn = (...values: string[]) => ({ matchExpressions: [{ key: 'zone', operator: 'In' as const, values }] });
const nameIn = (name: string) => ({ matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: [name] }] });
const requireZone = (zone: string): Pod['spec']['affinity'] => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [zoneIn(zone)] } },
});
const added = (...terms: object[]): NodeAffinityArgs => ({
  addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms as never } },
});

describe('NodeAffinity addedAffinity: Filter (ANDed with the pod own)', () => {
  const cases: [string, Partial<Pod['spec']>, Record<string, string>, NodeAffinityArgs, string | undefined][] = [
    ['matches the added affinity and the pod node affinity', { affinity: requireZone('foo') }, { zone: 'foo' }, added(nameIn('node1')), undefined],
    ['matches the added affinity but not the pod node affinity', { affinity: requireZone('bar') }, { zone: 'foo' }, added(nameIn('node1')), ERR_REASON_POD],
    ['does not match the added affinity (checked first)', { affinity: requireZone('bar') }, { zone: 'foo' }, added(zoneIn('bar')), ERR_REASON_ENFORCED],
    ['a pod without affinity still meets the added affinity', {}, { zone: 'foo' }, added(zoneIn('bar')), ERR_REASON_ENFORCED],
    ['added terms are ORed', {}, { zone: 'foo' }, added(zoneIn('bar'), zoneIn('foo')), undefined],
    ['and combine with the nodeSelector', { nodeSelector: { disk: 'ssd' } }, { zone: 'foo' }, added(zoneIn('foo')), ERR_REASON_POD],
    ['no added terms at all: no node matches', {}, { zone: 'foo' }, added(), ERR_REASON_ENFORCED],
  ];
  it.each(cases)('%s', (_name, spec, labels, args, reason) => {
    const plugin = newNodeAffinity(args);
    const pod = newPodInfo(makePod('p', spec));
    const node = Snapshot.build([makeNode('node1', { labels })]).get('node1')!;
    // PreFilter must not skip a pod with nothing of its own: the added affinity still applies
    expect(plugin.preFilter(new Map(), pod, { allNodes: [node] })[1].code).toBe('Success');
    expect(plugin.filter(new Map(), pod, node)).toEqual(
      reason ? { code: 'UnschedulableAndUnresolvable', reasons: [reason] } : { code: 'Success', reasons: [] },
    );
  });
});

describe('NodeAffinity addedAffinity: Score (added preferred terms add to the pod own)', () => {
  const pref = (weight: number, key: string, value: string) => ({
    weight,
    preference: { matchExpressions: [{ key, operator: 'In' as const, values: [value] }] },
  });
  const snap = Snapshot.build([
    makeNode('node1', { labels: { foo: 'bar' } }),
    makeNode('node2', { labels: { foo: 'bar', key: 'value' } }),
    makeNode('node3', { labels: { az: 'az1', foo: 'bar', key: 'value' } }),
  ]);
  const scores = (args: NodeAffinityArgs | undefined, pod: Pod): number[] => {
    const plugin = newNodeAffinity(args);
    const state = new Map();
    const p = newPodInfo(pod);
    plugin.preScore(state, p, snap.nodeInfoList, { allNodes: snap.nodeInfoList });
    const raw = snap.nodeInfoList.map((n) => ({ name: n.node!.name, score: plugin.score(state, p, n)[0] }));
    return plugin.scoreExtensions()!.normalizeScore(state, p, raw)[0].map((s) => s.score);
  };
  it('only added preferred terms: a pod without preferences is scored, not skipped', () => {
    const args: NodeAffinityArgs = { addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [pref(5, 'key', 'value')] } };
    expect(newNodeAffinity(args).preScore(new Map(), newPodInfo(makePod('p')), [], { allNodes: [] }).code).toBe('Success');
    expect(newNodeAffinity().preScore(new Map(), newPodInfo(makePod('p')), [], { allNodes: [] }).code).toBe('Skip');
    expect(scores(args, makePod('p'))).toEqual([0, MAX_NODE_SCORE, MAX_NODE_SCORE]);
  });
  it('added and pod terms are summed: raw 2, 6+3, 11+3 -> 14, 64, 100', () => {
    const pod = makePod('p', {
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [pref(2, 'foo', 'bar'), pref(4, 'key', 'value'), pref(5, 'az', 'az1')] } },
    });
    const args: NodeAffinityArgs = { addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [pref(3, 'key', 'value'), pref(0, 'foo', 'bar')] } };
    expect(scores(args, pod)).toEqual([14, 64, MAX_NODE_SCORE]);
  });
});

describe('NodeAffinityArgs in a profile', () => {
  it('a pod no node of the enforced zone can take: the FitError names the scheduler-enforced affinity', () => {
    const r = buildSchedulerConfig({
      profiles: [{ pluginConfig: [{ name: 'NodeAffinity', args: added(zoneIn('east')) }] }],
    });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const rng = createRng(1);
    const schedule = (nodes: ReturnType<typeof makeNode>[]) =>
      scheduleOne({ profile: r.config.profiles[0]!, snapshot: Snapshot.build(nodes, []), pod: makePod('p'), intn: (n) => rng.nextInt(n), nextStartNodeIndex: 0 });
    const out = schedule([makeNode('a', { labels: { zone: 'west' } }), makeNode('b', { labels: { zone: 'west' } })]);
    expect(out.kind === 'Unschedulable' && out.fitError.message).toBe(
      "0/2 nodes are available: 2 node(s) didn't match scheduler-enforced node affinity. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
    const placed = schedule([makeNode('a', { labels: { zone: 'west' } }), makeNode('b', { labels: { zone: 'east' } })]);
    expect(placed.kind === 'Scheduled' && placed.suggestedHost).toBe('b');
  });

  it.each([
    [
      { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Foo', values: ['a'] }] }] } },
      ['profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Foo"'],
    ],
    [
      { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }] } },
      ['profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: Invalid value: []string{"a", "b"}: must have one element'],
    ],
    [
      { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] } }] },
      ["profiles[0].pluginConfig[0].args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[0].values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"],
    ],
  ])('refuses an addedAffinity that does not parse (%#)', (addedAffinity, errors) => {
    const r = buildSchedulerConfig({ profiles: [{ pluginConfig: [{ name: 'NodeAffinity', args: { addedAffinity } }] }] });
    expect(r.ok ? [] : r.errors).toEqual(errors);
  });
});
