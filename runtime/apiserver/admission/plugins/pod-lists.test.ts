// The plugins that add to a pod's lists (ServiceAccount: a volume and its mounts;
// DefaultTolerationSeconds: two tolerations) leave a list of the wrong type alone, for validation
// to refuse: once, a containers[].volumeMounts object made ServiceAccount throw (a 500 carrying
// "... .some is not a function"), and a tolerations string was replaced by a valid list.
import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../../../api/index.ts';
import { createHarness } from '../../testing/harness.ts';

const pod = (spec: Record<string, unknown>, container: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', ...container }], ...spec } }) as KubeObject;

describe('pods whose lists are not lists', () => {
  it.each([
    ['containers[0].volumeMounts an object', pod({}, { volumeMounts: { a: 1 } }), 'spec.containers[0].volumeMounts'],
    ['volumes a string', pod({ volumes: 'x' }), 'spec.volumes'],
    ['tolerations a string', pod({ tolerations: 'x' }), 'spec.tolerations'],
  ])('%s: refused by validation (422), not a 500', (_, body, field) => {
    const res = createHarness().admin({ verb: 'create', resource: 'pods', namespace: 'default', body });
    expect(res.code).toBe(422);
    expect((res.body as Status).message).toContain(field);
  });

  it('a toleration that is not an object is no reason to throw either', () => {
    const res = createHarness().admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod({ tolerations: ['x', 5] }) });
    expect(res.code).toBe(422);
  });
});
