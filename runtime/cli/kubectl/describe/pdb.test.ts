// kubectl describe pdb, against describePodDisruptionBudgetV1 (staging/src/k8s.io/kubectl/pkg/describe/describe.go)
// and the shape of its output on a v1.33 cluster.
import { describe, expect, it } from 'vitest';
import { lookupResource, rfc3339, type CoreEvent, type PodDisruptionBudget } from '../../../api/index.ts';
import { describeObject } from '../commands/describe.ts';
import { describePodDisruptionBudget } from './pdb.ts';

const NOW_MS = 10 * 60_000;
const pdb = (spec: PodDisruptionBudget['spec'], status?: PodDisruptionBudget['status']): PodDisruptionBudget => ({
  apiVersion: 'policy/v1', kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', creationTimestamp: rfc3339(0) },
  spec,
  ...(status ? { status } : {}),
});
const synced = { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 };

describe('kubectl describe pdb', () => {
  it('prints min available, the selector and the counts', () => {
    expect(describePodDisruptionBudget(pdb({ minAvailable: 2, selector: { matchLabels: { app: 'web' } } }, synced), [], NOW_MS)).toBe([
      'Name:           web',
      'Namespace:      default',
      'Min available:  2',
      'Selector:       app=web',
      'Status:',
      '    Allowed disruptions:  1',
      '    Current:              3',
      '    Desired:              2',
      '    Total:                3',
      'Events:                   <none>',
      '',
    ].join('\n'));
  });

  it.each<[string, PodDisruptionBudget, string[]]>([
    ['max unavailable as a percentage', pdb({ maxUnavailable: '25%', selector: { matchLabels: { app: 'web' } } }, synced), ['Max unavailable:  25%']],
    ['an empty selector selects everything', pdb({ minAvailable: 1, selector: {} }, synced), ['Selector:       <none>']],
    ['no selector', pdb({ minAvailable: 1 }, synced), ['Selector:       <unset>']],
    ['before the controller ran', pdb({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } }), ['    Allowed disruptions:  0', '    Total:                0']],
  ])('%s', (_n, obj, lines) => {
    const text = describePodDisruptionBudget(obj, [], NOW_MS);
    for (const line of lines) expect(text.split('\n')).toContain(line);
  });

  it('lists the events about the budget, and is what describe dispatches the kind to', () => {
    const noPods: CoreEvent = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name: 'web.1', namespace: 'default' },
      involvedObject: { kind: 'PodDisruptionBudget', namespace: 'default', name: 'web' },
      type: 'Normal', reason: 'NoPods', message: 'No matching pods found', count: 1,
      firstTimestamp: rfc3339(NOW_MS - 30_000), lastTimestamp: rfc3339(NOW_MS - 30_000),
      source: { component: 'controllermanager' },
    } as CoreEvent;
    const obj = pdb({ minAvailable: 1, selector: { matchLabels: { app: 'none' } } }, { ...synced, disruptionsAllowed: 0, currentHealthy: 0, expectedPods: 0 });
    const text = describePodDisruptionBudget(obj, [noPods], NOW_MS);
    expect(text.split('\n').slice(9)).toEqual([
      'Events:',
      '  Type    Reason  Age   From               Message',
      '  ----    ------  ----  ----               -------',
      '  Normal  NoPods  30s   controllermanager  No matching pods found',
      '',
    ]);
    expect(describeObject(obj, lookupResource('pdb')!, { events: [noPods] }, NOW_MS)).toBe(text);
  });
});
