// The Priority admission plugin through the whole request pipeline, after
// plugin/pkg/admission/priority/admission_test.go (TestPodAdmission, TestPriorityClassAdmission):
// resolution from the class, the global default, refusals with the texts kubectl prints.
import { describe, expect, it } from 'vitest';
import type { KubeObject, Pod, PriorityClass, Status } from '../../../api/index.ts';
import { createHarness, type Harness } from '../../testing/harness.ts';
import { defaultPriorityClass } from './priority.ts';

const G = 'scheduling.k8s.io';
const pc = (name: string, value: number, extra: Record<string, unknown> = {}): PriorityClass =>
  ({ apiVersion: `${G}/v1`, kind: 'PriorityClass', metadata: { name }, value, ...extra }) as PriorityClass;
const pod = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } }) as KubeObject;
const createPc = (h: Harness, obj: PriorityClass) => h.admin({ verb: 'create', group: G, resource: 'priorityclasses', body: obj });
const createPod = (h: Harness, obj: KubeObject, namespace = 'default') => h.admin({ verb: 'create', resource: 'pods', namespace, body: obj });
const message = (b: unknown): string => (b as Status).message ?? '';

/** A server with the user classes the upstream tests use (the system ones come from the hook). */
function withClasses(...classes: PriorityClass[]): Harness {
  const h = createHarness();
  for (const c of classes) expect(createPc(h, c).code).toBe(201);
  h.kernel.runFor(50); // the watch cache sees them
  return h;
}

const defaultClass1 = pc('default1', 1000, { globalDefault: true });
const nondefaultClass1 = pc('nondefault1', 2000, { description: 'Just a test priority class' });
const neverClass = pc('nopreemption', 2000, { preemptionPolicy: 'Never' });

describe('Priority admission: pods', () => {
  it.each([
    ['no class, no default: priority 0, PreemptLowerPriority', [], {}, { priority: 0, preemptionPolicy: 'PreemptLowerPriority' }],
    ['no class with a global default: the default class', [defaultClass1], {}, { priority: 1000, priorityClassName: 'default1', preemptionPolicy: 'PreemptLowerPriority' }],
    ['a named class', [defaultClass1, nondefaultClass1], { priorityClassName: 'nondefault1' }, { priority: 2000, priorityClassName: 'nondefault1' }],
    ['a class with preemptionPolicy Never', [neverClass], { priorityClassName: 'nopreemption' }, { priority: 2000, preemptionPolicy: 'Never' }],
    ['a system class in kube-system', [], { priorityClassName: 'system-node-critical' }, { priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' }],
    ['spec.priority equal to the class value', [nondefaultClass1], { priorityClassName: 'nondefault1', priority: 2000 }, { priority: 2000 }],
    ['spec.preemptionPolicy equal to the class policy', [neverClass], { priorityClassName: 'nopreemption', preemptionPolicy: 'Never' }, { preemptionPolicy: 'Never' }],
  ])('admits %s', (_name, classes, spec, want) => {
    const h = withClasses(...classes);
    const res = createPod(h, pod('p', spec), 'kube-system');
    expect(res.code).toBe(201);
    expect((res.body as Pod).spec).toMatchObject(want);
  });

  it('a system class is admitted outside kube-system too (the namespace rule left upstream in 1.17)', () => {
    const res = createPod(createHarness(), pod('p', { priorityClassName: 'system-cluster-critical' }));
    expect(res.code).toBe(201);
    expect((res.body as Pod).spec.priority).toBe(2000000000);
  });

  it.each([
    ['a class that does not exist', [], { priorityClassName: 'foo' }, 'pods "x" is forbidden: no PriorityClass with name foo was found'],
    [
      'spec.priority that differs from the class',
      [nondefaultClass1],
      { priorityClassName: 'nondefault1', priority: 10 },
      'pods "x" is forbidden: the integer value of priority (10) must not be provided in pod spec; priority admission controller computed 2000 from the given PriorityClass name',
    ],
    [
      'spec.priority without a class and no default',
      [],
      { priority: 5 },
      'pods "x" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    ],
    [
      'spec.preemptionPolicy that differs from the class',
      [neverClass],
      { priorityClassName: 'nopreemption', preemptionPolicy: 'PreemptLowerPriority' },
      'pods "x" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    ],
  ])('refuses %s', (_name, classes, spec, want) => {
    const res = createPod(withClasses(...classes), pod('x', spec));
    expect(res.code).toBe(403);
    expect(message(res.body)).toBe(want);
  });

  it('finds a class created a moment ago that the watch cache has not seen yet', () => {
    const h = createHarness();
    expect(createPc(h, nondefaultClass1).code).toBe(201);
    const res = createPod(h, pod('p', { priorityClassName: 'nondefault1' }));
    expect(res.code).toBe(201);
    expect((res.body as Pod).spec.priority).toBe(2000);
  });

  it('an update that drops priority keeps the value create resolved', () => {
    const h = withClasses(nondefaultClass1);
    const created = createPod(h, pod('p', { priorityClassName: 'nondefault1' })).body as Pod;
    const next = structuredClone(created);
    delete next.spec.priority;
    delete next.spec.preemptionPolicy;
    next.metadata.labels = { touched: 'yes' };
    const res = h.admin({ verb: 'update', resource: 'pods', namespace: 'default', name: 'p', body: next });
    expect(res.code).toBe(200);
    expect((res.body as Pod).spec).toMatchObject({ priority: 2000, preemptionPolicy: 'PreemptLowerPriority' });
  });
});

describe('Priority admission: PriorityClasses', () => {
  it('refuses a second globalDefault class', () => {
    const h = withClasses(defaultClass1);
    const res = createPc(h, pc('default2', 2000, { globalDefault: true }));
    expect(res.code).toBe(403);
    expect(message(res.body)).toBe(
      'priorityclasses.scheduling.k8s.io "default2" is forbidden: PriorityClass default1 is already marked as default. Only one default can exist',
    );
  });

  it('refuses marking another class default, allows re-saving the default one', () => {
    const h = withClasses(defaultClass1, nondefaultClass1);
    const get = (name: string) => h.admin({ verb: 'get', group: G, resource: 'priorityclasses', name }).body as PriorityClass;
    const other = { ...get('nondefault1'), globalDefault: true };
    const refused = h.admin({ verb: 'update', group: G, resource: 'priorityclasses', name: 'nondefault1', body: other });
    expect(refused.code).toBe(403);
    expect(message(refused.body)).toBe(
      'priorityclasses.scheduling.k8s.io "nondefault1" is forbidden: PriorityClass default1 is already marked as default. Only one default can exist',
    );
    const same = { ...get('default1'), description: 'still the default' };
    expect(h.admin({ verb: 'update', group: G, resource: 'priorityclasses', name: 'default1', body: same }).code).toBe(200);
  });

  it('refuses a user class above the ceiling in validation, before admission', () => {
    const res = createPc(createHarness(), pc('tier1', 1_000_000_001));
    expect(res.code).toBe(422);
    expect(message(res.body)).toBe(
      'PriorityClass.scheduling.k8s.io "tier1" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
  });

  it('refuses changing the value of a class', () => {
    const h = withClasses(nondefaultClass1);
    const cur = h.admin({ verb: 'get', group: G, resource: 'priorityclasses', name: 'nondefault1' }).body as PriorityClass;
    const res = h.admin({ verb: 'update', group: G, resource: 'priorityclasses', name: 'nondefault1', body: { ...cur, value: 3 } });
    expect(res.code).toBe(422);
    expect(message(res.body)).toBe(
      'PriorityClass.scheduling.k8s.io "nondefault1" is invalid: value: Forbidden: may not be changed in an update.',
    );
  });
});

describe('defaultPriorityClass', () => {
  it.each([
    ['none', [pc('a', 1), pc('b', 2)], undefined],
    ['the only default', [pc('a', 1), pc('b', 2, { globalDefault: true })], 'b'],
    ['the lowest value when a race made two', [pc('a', 50, { globalDefault: true }), pc('b', 20, { globalDefault: true })], 'b'],
  ])('%s', (_name, classes, want) => {
    expect(defaultPriorityClass(classes)?.metadata.name).toBe(want);
  });
});
