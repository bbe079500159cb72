// TaintNodesByCondition through the whole request pipeline, after
// plugin/pkg/admission/nodetaint/admission_test.go (TestNodeTaint).
import { describe, expect, it } from 'vitest';
import type { Node, Taint } from '../../../api/index.ts';
import { createHarness } from '../../testing/harness.ts';

const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const node = (name: string, taints?: Taint[]): Node =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...(taints ? { spec: { taints } } : {}) }) as Node;

describe('TaintNodesByCondition admission', () => {
  it.each<[string, Taint[] | undefined, Taint[]]>([
    ['a node without taints gets not-ready:NoSchedule', undefined, [notReady]],
    ['it is added after the node\'s own taints', [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }], [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }, notReady]],
    ['a node that already has it keeps one', [notReady], [notReady]],
    ['a not-ready taint with another effect is not the same taint', [{ key: notReady.key, effect: 'NoExecute' }], [{ key: notReady.key, effect: 'NoExecute' }, notReady]],
  ])('%s', (_name, taints, want) => {
    const h = createHarness();
    const res = h.admin({ verb: 'create', resource: 'nodes', body: node('n1', taints) });
    expect(res.code).toBe(201);
    expect((res.body as Node).spec?.taints).toEqual(want);
  });

  it('only creates: an update that removes the taint keeps it removed', () => {
    const h = createHarness();
    const created = h.admin({ verb: 'create', resource: 'nodes', body: node('n1') }).body as Node;
    const res = h.admin({ verb: 'update', resource: 'nodes', name: 'n1', body: { ...created, spec: {} } });
    expect(res.code).toBe(200);
    expect((res.body as Node).spec?.taints).toBeUndefined();
  });
});
