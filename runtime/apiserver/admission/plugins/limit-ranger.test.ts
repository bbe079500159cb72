// LimitRanger's mutating half through the request pipeline, after
// plugin/pkg/admission/limitranger/admission_test.go (TestMergePodResourceRequirements): the
// defaults a container lacks, and the kubernetes.io/limit-ranger annotation's exact text.
import { describe, expect, it } from 'vitest';
import type { KubeObject, LimitRange, Pod } from '../../../api/index.ts';
import { createHarness } from '../../testing/harness.ts';

const limitRange = (limits: NonNullable<LimitRange['spec']>['limits']): LimitRange =>
  ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'defaults' }, spec: { limits } }) as LimitRange;
const pod = (spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }) as KubeObject;

const BOTH = limitRange([
  { type: 'Container', defaultRequest: { memory: '128Mi', cpu: '100m' }, default: { memory: '256Mi', cpu: '500m' } },
]);

describe('LimitRanger admission: defaults and the annotation', () => {
  it.each([
    [
      'both requests and both limits on a container with none',
      BOTH,
      { containers: [{ name: 'a', image: 'nginx' }] },
      'LimitRanger plugin set: cpu, memory request for container a; cpu, memory limit for container a',
      { a: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } } },
    ],
    [
      'only what is missing: a cpu limit given (its request copied by defaulting) leaves memory',
      BOTH,
      { containers: [{ name: 'a', image: 'nginx', resources: { limits: { cpu: '1' } } }] },
      'LimitRanger plugin set: memory request for container a; memory limit for container a',
      { a: { requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '1', memory: '256Mi' } } },
    ],
    [
      'containers, then init containers with their own prefix',
      limitRange([{ type: 'Container', defaultRequest: { cpu: '100m' } }]),
      { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'nginx' }] },
      'LimitRanger plugin set: cpu request for container a; cpu request for container b; cpu request for init container init',
      { a: { requests: { cpu: '100m' } }, b: { requests: { cpu: '100m' } } },
    ],
  ])('%s', (_name, lr, spec, annotation, resources) => {
    const h = createHarness();
    expect(h.admin({ verb: 'create', resource: 'limitranges', namespace: 'default', body: lr }).code).toBe(201);
    h.kernel.runFor(50); // the watch cache sees it
    const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(spec) });
    expect(res.code).toBe(201);
    const created = res.body as Pod;
    expect(created.metadata.annotations?.['kubernetes.io/limit-ranger']).toBe(annotation);
    for (const [name, want] of Object.entries(resources)) {
      expect(created.spec.containers.find((c) => c.name === name)?.resources).toEqual(want);
    }
  });

  it('sets nothing, and writes no annotation, when every default is already there', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'limitranges', namespace: 'default', body: limitRange([{ type: 'Container', defaultRequest: { cpu: '100m' } }]) });
    h.kernel.runFor(50);
    const res = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod({ containers: [{ name: 'a', image: 'nginx', resources: { requests: { cpu: '1' } } }] }) });
    expect((res.body as Pod).metadata.annotations?.['kubernetes.io/limit-ranger']).toBeUndefined();
  });
});
