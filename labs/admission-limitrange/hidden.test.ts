// Hidden grading suite for the admission-limitrange lab. Behaviour only: the defaults filled into
// a Pod and the annotation that records them, the min/max/ratio refusals with upstream's messages,
// the plugin's phases over a namespace's LimitRanges, the same plugin inside a live API server's
// admission chain, and a differential test against the reference on generated LimitRanges and Pods.
// Tables ported from plugin/pkg/admission/limitranger/admission_test.go (TestMergePodResourceRequirements,
// TestPodLimitFunc's Container cases, TestLimitRangerAdmitPod) with the messages of admission.go.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultObject, Quantity, resourceFor, type Container, type LimitRange, type LimitRangeItem, type Pod, type ResourceList, type Status } from '../../runtime/api/index.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../../runtime/apiserver/index.ts';
import { newLimitRanger, podMutateLimitFunc, podValidateLimitFunc } from '@lab/submission';
import { liveServer } from './live.ts';
import { reference } from './reference.ts';

// ---------------------------------------------------------------- builders

type Resources = { requests?: ResourceList; limits?: ResourceList };

const ctr = (name: string, resources: Resources = {}): Container => ({ name, image: 'nginx:1.27', resources: structuredClone(resources) });

/** A Pod as admission receives it: decoded and defaulted (a limit without a request requests the limit). */
function pod(name: string, containers: Container[], initContainers: Container[] = [], annotations?: Record<string, string>): Pod {
  return defaultObject<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'test', ...(annotations ? { annotations } : {}) },
    spec: { containers, ...(initContainers.length ? { initContainers } : {}) },
  });
}

/** validPod of the upstream tests: n containers foo-0.. with the same resources. */
const validPod = (name: string, n: number, resources: Resources): Pod =>
  pod(name, Array.from({ length: n }, (_, i) => ctr(`foo-${i}`, resources)));

/** A LimitRange as stored (SetDefaults_LimitRangeItem applied, quantities canonical). */
function limitRange(name: string, ...limits: LimitRangeItem[]): LimitRange {
  return defaultObject<LimitRange>({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace: 'test' }, spec: { limits } });
}

const res = (cpu?: string, memory?: string): ResourceList => ({ ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) });

/** Container item with only the given lists. */
const container = (lists: Omit<LimitRangeItem, 'type'>): LimitRangeItem => ({ type: 'Container', ...lists });

/** validLimitRange of the upstream tests, Container item only. */
const validLimitRange = () =>
  limitRange('abc', container({ max: res('100m', '2Gi'), min: res('25m', '1Mi'), default: res('75m', '10Mi'), defaultRequest: res('50m', '5Mi') }));

/** What JSON keeps of a container's resources: empty maps are omitted (omitempty), a missing struct is {}. */
function normalized(p: Pod): Pod {
  const copy = structuredClone(p);
  for (const c of [...(copy.spec.containers ?? []), ...(copy.spec.initContainers ?? [])]) {
    const r = (c.resources ??= {});
    if (r.requests && Object.keys(r.requests).length === 0) delete r.requests;
    if (r.limits && Object.keys(r.limits).length === 0) delete r.limits;
  }
  if (copy.metadata.annotations && Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
  return copy;
}

const resourcesOf = (p: Pod) => [...(p.spec.containers ?? []), ...(p.spec.initContainers ?? [])].map((c) => ({ name: c.name, resources: c.resources }));
const annotationOf = (p: Pod) => p.metadata.annotations?.['kubernetes.io/limit-ranger'];

/** The learner's mutating function on a copy; returns the normalized result. */
function mutated(lr: LimitRange, p: Pod): Pod {
  const copy = structuredClone(p);
  podMutateLimitFunc(structuredClone(lr), copy);
  return normalized(copy);
}

// ---------------------------------------------------------------- the mutating half

describe('defaults (PodMutateLimitFunc)', () => {
  it('gives a container without resources every default request and limit (TestMergePodResourceRequirements)', () => {
    const out = mutated(validLimitRange(), validPod('empty-resources', 1, {}));
    expect(resourcesOf(out), 'containers after defaulting').toEqual([{ name: 'foo-0', resources: { requests: res('50m', '5Mi'), limits: res('75m', '10Mi') } }]);
    expect(annotationOf(out), 'the kubernetes.io/limit-ranger annotation').toBe(
      'LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0',
    );
  });

  it('fills only what is missing, naming only what it set (TestMergePodResourceRequirements)', () => {
    const out = mutated(validLimitRange(), validPod('limit-memory', 1, { requests: res(undefined, '512Mi') }));
    expect(resourcesOf(out)).toEqual([{ name: 'foo-0', resources: { requests: res('50m', '512Mi'), limits: res('75m', '10Mi') } }]);
    expect(annotationOf(out)).toBe('LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0');
  });

  it('changes nothing and writes no annotation when everything is set (TestMergePodResourceRequirements)', () => {
    const input = validPod('limit-memory', 1, { requests: res('100m', '512Mi'), limits: res('200m', '1G') });
    const out = mutated(validLimitRange(), input);
    expect(out).toEqual(normalized(input));
    expect(annotationOf(out)).toBeUndefined();
  });

  it('takes requests from defaultRequest, not from the default limit', () => {
    const lr = limitRange('l', container({ default: res('1', '1Gi'), defaultRequest: res('250m', '256Mi') }));
    expect(resourcesOf(mutated(lr, validPod('p', 1, {})))).toEqual([{ name: 'foo-0', resources: { requests: res('250m', '256Mi'), limits: res('1', '1Gi') } }]);
  });

  it('uses the stored LimitRange as it is: defaultRequest was defaulted from default, default from max', () => {
    // as written: max memory 1Gi, default cpu 500m; stored: default {cpu 500m, memory 1Gi}, defaultRequest the same
    const lr = limitRange('l', container({ max: res(undefined, '1Gi'), default: res('500m') }));
    expect(lr.spec!.limits[0]!.defaultRequest, 'the stored LimitRange (set by the API server, not by you)').toEqual(res('500m', '1Gi'));
    const out = mutated(lr, validPod('p', 1, {}));
    expect(resourcesOf(out)).toEqual([{ name: 'foo-0', resources: { requests: res('500m', '1Gi'), limits: res('500m', '1Gi') } }]);
  });

  it('keeps a request the API server copied from a limit (only limits written)', () => {
    // SetDefaults_Pod ran first: limits {cpu: 2} became requests {cpu: 2} too
    const p = validPod('p', 1, { limits: res('2') });
    expect(p.spec.containers[0]!.resources?.requests, 'the decoded pod (set by the API server, not by you)').toEqual(res('2'));
    const out = mutated(validLimitRange(), p);
    expect(resourcesOf(out)).toEqual([{ name: 'foo-0', resources: { requests: res('2', '5Mi'), limits: res('2', '10Mi') } }]);
    expect(annotationOf(out)).toBe('LimitRanger plugin set: memory request for container foo-0; memory limit for container foo-0');
  });

  it('sets a default limit even below the container\'s own request (validation refuses the pod later)', () => {
    const out = mutated(validLimitRange(), validPod('p', 1, { requests: res('1', '1Gi') }));
    expect(resourcesOf(out)).toEqual([{ name: 'foo-0', resources: { requests: res('1', '1Gi'), limits: res('75m', '10Mi') } }]);
  });

  it('never overwrites an explicit value, zero included', () => {
    const out = mutated(validLimitRange(), validPod('p', 1, { requests: res('0', '0'), limits: res('0', '0') }));
    expect(resourcesOf(out)).toEqual([{ name: 'foo-0', resources: { requests: res('0', '0'), limits: res('0', '0') } }]);
    expect(annotationOf(out)).toBeUndefined();
  });

  it('defaults init containers too, after the containers, as "init container"', () => {
    const p = pod('p', [ctr('app'), ctr('sidecar', { requests: res('10m', '10Mi'), limits: res('20m', '20Mi') })], [ctr('setup', { limits: res(undefined, '1Gi') })]);
    const out = mutated(validLimitRange(), p);
    expect(resourcesOf(out)).toEqual([
      { name: 'app', resources: { requests: res('50m', '5Mi'), limits: res('75m', '10Mi') } },
      { name: 'sidecar', resources: { requests: res('10m', '10Mi'), limits: res('20m', '20Mi') } },
      { name: 'setup', resources: { requests: res('50m', '1Gi'), limits: res('75m', '1Gi') } },
    ]);
    expect(annotationOf(out)).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; ' +
        'cpu request for init container setup; cpu limit for init container setup',
    );
  });

  it('lists resource names sorted, requests before limits, container by container', () => {
    // stored: the nvidia.com/gpu default limit became a default request too
    const lr = limitRange('l', container({
      default: { memory: '512Mi', 'nvidia.com/gpu': '1', cpu: '1', 'ephemeral-storage': '1Gi' },
      defaultRequest: { memory: '256Mi', 'ephemeral-storage': '500Mi', cpu: '500m' },
    }));
    const out = mutated(lr, pod('p', [ctr('b'), ctr('a', { limits: { memory: '1Gi' } })]));
    expect(annotationOf(out)).toBe(
      'LimitRanger plugin set: cpu, ephemeral-storage, memory, nvidia.com/gpu request for container b; cpu, ephemeral-storage, memory, nvidia.com/gpu limit for container b; ' +
        'cpu, ephemeral-storage, nvidia.com/gpu request for container a; cpu, ephemeral-storage, nvidia.com/gpu limit for container a',
    );
  });

  it('merges the Container items of one LimitRange, a later item overriding an earlier one', () => {
    const lr = limitRange(
      'l',
      container({ default: res('1', '1Gi'), defaultRequest: res('100m', '100Mi') }),
      { type: 'Pod', max: res('4', '8Gi') },
      container({ default: res('2'), defaultRequest: res('200m') }),
    );
    expect(resourcesOf(mutated(lr, validPod('p', 1, {})))).toEqual([{ name: 'foo-0', resources: { requests: res('200m', '100Mi'), limits: res('2', '1Gi') } }]);
  });

  it('takes no defaults from Pod items and does nothing without Container items', () => {
    const lr = limitRange('l', { type: 'Pod', max: res('4', '8Gi'), min: res('10m', '1Mi') });
    const input = validPod('p', 2, {});
    const out = mutated(lr, input);
    expect(out).toEqual(normalized(input));
  });

  it('keeps other annotations and replaces an earlier limit-ranger note', () => {
    const p = pod('p', [ctr('a')], [], { team: 'web', 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: stale' });
    const out = mutated(validLimitRange(), p);
    expect(out.metadata.annotations).toEqual({
      team: 'web',
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container a; cpu, memory limit for container a',
    });
  });

  it('does not modify the LimitRange', () => {
    const lr = validLimitRange();
    const before = structuredClone(lr);
    const p = validPod('p', 2, {});
    podMutateLimitFunc(lr, p);
    podMutateLimitFunc(lr, p);
    expect(lr, 'the LimitRange after defaulting a pod twice').toEqual(before);
    // and each container holds its own values: changing one changes neither the other nor the LimitRange
    const second = p.spec.containers[1]?.resources?.requests?.cpu;
    const first = p.spec.containers[0]?.resources?.requests;
    if (first) first.cpu = '1';
    expect(p.spec.containers[1]?.resources?.requests?.cpu, "the second container's cpu request after changing the first's").toBe(second);
    expect(lr, 'the LimitRange after changing a container it defaulted').toEqual(before);
  });
});

// ---------------------------------------------------------------- the validating half

describe('constraints (PodValidateLimitFunc)', () => {
  const check = (lr: LimitRange, p: Pod): string => {
    const out: unknown = podValidateLimitFunc(structuredClone(lr), structuredClone(p));
    return out as string;
  };
  const only = (lists: Omit<LimitRangeItem, 'type'>) => limitRange('abc', container(lists));

  // TestPodLimitFunc's Container success cases
  const fits: [string, Pod, LimitRange][] = [
    ['ctr-min-cpu-request', validPod('p', 1, { requests: res('100m') }), only({ min: res('50m') })],
    ['ctr-min-cpu-request-limit', validPod('p', 1, { requests: res('100m'), limits: res('200m') }), only({ min: res('50m') })],
    ['ctr-min-memory-request', validPod('p', 1, { requests: res(undefined, '60Mi') }), only({ min: res(undefined, '50Mi') })],
    ['ctr-min-memory-request-limit', validPod('p', 1, { requests: res(undefined, '60Mi'), limits: res(undefined, '100Mi') }), only({ min: res(undefined, '50Mi') })],
    ['ctr-max-cpu-request-limit', validPod('p', 1, { requests: res('500m'), limits: res('1') }), only({ max: res('2') })],
    ['ctr-max-cpu-limit', validPod('p', 1, { limits: res('1') }), only({ max: res('2') })],
    ['ctr-max-mem-request-limit', validPod('p', 1, { requests: res(undefined, '250Mi'), limits: res(undefined, '500Mi') }), only({ max: res(undefined, '1Gi') })],
    ['ctr-max-cpu-ratio', validPod('p', 1, { requests: res('500m'), limits: res('750m') }), only({ maxLimitRequestRatio: res('1500m') })],
    ['ctr-max-mem-limit', validPod('p', 1, { limits: res(undefined, '500Mi') }), only({ max: res(undefined, '1Gi') })],
    ['a limit equal to max and a request equal to min', validPod('p', 1, { requests: res('50m'), limits: res('2') }), only({ min: res('50m'), max: res('2') })],
    ['a ratio exactly at the maximum (1100m / 1 = 1100m)', validPod('p', 1, { requests: res('1'), limits: res('1100m') }), only({ maxLimitRequestRatio: res('1100m') })],
    ['1500Mi is more than 1Gi, not less (compare values, not text)', validPod('p', 1, { requests: res(undefined, '1500Mi') }), only({ min: res(undefined, '1Gi') })],
    ['500m is less than 2, not more (compare values, not text)', validPod('p', 1, { limits: res('500m') }), only({ max: res('2') })],
    ['500M is less than 1Gi', validPod('p', 1, { limits: res(undefined, '500M') }), only({ max: res(undefined, '1Gi') })],
    ['a resource the item does not mention is not checked', validPod('p', 1, { limits: res('64', '10Mi') }), only({ max: res(undefined, '1Gi'), min: res(undefined, '1Mi') })],
  ];
  it.each(fits)('fits: %s', (_name, p, lr) => {
    expect(check(lr, p), `podValidateLimitFunc for ${JSON.stringify(resourcesOf(p))} against ${JSON.stringify(lr.spec!.limits)}`).toBe('');
  });

  // TestPodLimitFunc's Container error cases, with the message each one gets
  const refusals: [string, Pod, LimitRange, string][] = [
    ['ctr-min-cpu-request', validPod('p', 1, { requests: res('40m') }), only({ min: res('50m') }), 'minimum cpu usage per Container is 50m, but request is 40m'],
    ['ctr-min-cpu-request-limit', validPod('p', 1, { requests: res('40m'), limits: res('200m') }), only({ min: res('50m') }), 'minimum cpu usage per Container is 50m, but request is 40m'],
    ['ctr-min-cpu-no-request-limit', validPod('p', 1, {}), only({ min: res('50m') }), 'minimum cpu usage per Container is 50m.  No request is specified'],
    ['ctr-min-memory-no-request-limit', validPod('p', 1, {}), only({ min: res(undefined, '50Mi') }), 'minimum memory usage per Container is 50Mi.  No request is specified'],
    ['ctr-min-memory-request', validPod('p', 1, { requests: res(undefined, '40Mi') }), only({ min: res(undefined, '50Mi') }), 'minimum memory usage per Container is 50Mi, but request is 40Mi'],
    ['ctr-max-cpu-request-limit', validPod('p', 1, { requests: res('500m'), limits: res('2500m') }), only({ max: res('2') }), 'maximum cpu usage per Container is 2, but limit is 2500m'],
    ['ctr-max-cpu-limit', validPod('p', 1, { limits: res('2500m') }), only({ max: res('2') }), 'maximum cpu usage per Container is 2, but limit is 2500m'],
    ['ctr-max-cpu-no-request-limit', validPod('p', 1, {}), only({ max: res('2') }), 'maximum cpu usage per Container is 2.  No limit is specified'],
    ['ctr-max-cpu-ratio', validPod('p', 1, { requests: res('1250m'), limits: res('2500m') }), only({ maxLimitRequestRatio: res('1') }), 'cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000'],
    ['ctr-max-mem-request-limit', validPod('p', 1, { requests: res(undefined, '250Mi'), limits: res(undefined, '2Gi') }), only({ max: res(undefined, '1Gi') }), 'maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    ['ctr-max-mem-limit', validPod('p', 1, { limits: res(undefined, '2Gi') }), only({ max: res(undefined, '1Gi') }), 'maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    ['no request for a min', validPod('p', 1, { limits: res(undefined, '1Gi') }), only({ min: res('100m') }), 'minimum cpu usage per Container is 100m.  No request is specified'],
    ['a limit under min, the request above it', pod('p', [ctr('a', { requests: res('200m'), limits: res('50m') })]), only({ min: res('100m') }), 'minimum cpu usage per Container is 100m, but limit is 50m'],
    ['a request over max, the limit within it', pod('p', [ctr('a', { requests: res('3'), limits: res('2') })]), only({ max: res('2') }), 'maximum cpu usage per Container is 2, but request is 3'],
    ['1500M is more than 1Gi', validPod('p', 1, { limits: res(undefined, '1500M') }), only({ max: res(undefined, '1Gi') }), 'maximum memory usage per Container is 1Gi, but limit is 1500M'],
    ['2 is more than 500m (compare values, not text)', validPod('p', 1, { requests: res('2'), limits: res('2') }), only({ max: res('500m') }), 'maximum cpu usage per Container is 500m, but limit is 2'],
    ['a ratio with no request', validPod('p', 1, {}), only({ maxLimitRequestRatio: res('2') }), 'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0'],
    ['a ratio with a zero request', validPod('p', 1, { requests: res('0'), limits: res('1') }), only({ maxLimitRequestRatio: res('2') }), 'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0'],
    ['a ratio with no limit', validPod('p', 1, { requests: res('1') }), only({ maxLimitRequestRatio: res('2') }), 'cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0'],
    ['a ratio is limit over request, not the other way round', validPod('p', 1, { requests: res(undefined, '128Mi'), limits: res(undefined, '512Mi') }), only({ maxLimitRequestRatio: res(undefined, '2') }), 'memory max limit to request ratio per Container is 2, but provided ratio is 4.000000'],
    ['a ratio across units (1Gi / 500M)', validPod('p', 1, { requests: res(undefined, '500M'), limits: res(undefined, '1Gi') }), only({ maxLimitRequestRatio: res(undefined, '2') }), 'memory max limit to request ratio per Container is 2, but provided ratio is 2.147484'],
    ['a ratio shows six decimals rounded half to even (129Mi / 128Mi = 1.0078125)', validPod('p', 1, { requests: res(undefined, '128Mi'), limits: res(undefined, '129Mi') }), only({ maxLimitRequestRatio: res(undefined, '1') }), 'memory max limit to request ratio per Container is 1, but provided ratio is 1.007812'],
    ['a ratio just over a fractional maximum', validPod('p', 1, { requests: res('300m'), limits: res('1') }), only({ maxLimitRequestRatio: res('3') }), 'cpu max limit to request ratio per Container is 3, but provided ratio is 3.333333'],
    ['a fractional maximum prints as stored (1.5 is stored as 1500m)', validPod('p', 1, { requests: res('100m'), limits: res('200m') }), limitRange('abc', container({ maxLimitRequestRatio: res('1.5') })), 'cpu max limit to request ratio per Container is 1500m, but provided ratio is 2.000000'],
  ];
  // (the stored LimitRanges have default requests, but these pods are checked as written: no
  // LimitRanger defaults were applied to them)
  it.each(refusals)('refuses: %s', (_name, p, lr, expected) => {
    expect(check(lr, p), `podValidateLimitFunc for ${JSON.stringify(resourcesOf(p))} against ${JSON.stringify(lr.spec!.limits)}`).toBe(expected);
  });

  it('checks init containers too', () => {
    const p = pod('p', [ctr('app', { requests: res('100m'), limits: res('100m') })], [ctr('setup', { requests: res('10m'), limits: res('10m') })]);
    expect(check(only({ min: res('50m') }), p)).toBe('minimum cpu usage per Container is 50m, but request is 10m');
  });

  it('reports every violation, container by container, min then max then ratio, in brackets', () => {
    const lr = only({ min: res('100m', '64Mi'), max: res('1', '1Gi'), maxLimitRequestRatio: res('4') });
    const p = pod('p', [ctr('a', { requests: res('50m', '32Mi'), limits: res('2', '2Gi') })], [ctr('init', { limits: res(undefined, '128Mi') })]);
    expect(check(lr, p)).toBe(
      '[minimum cpu usage per Container is 100m, but request is 50m, minimum memory usage per Container is 64Mi, but request is 32Mi, ' +
        'maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, ' +
        'cpu max limit to request ratio per Container is 4, but provided ratio is 40.000000, ' +
        'minimum cpu usage per Container is 100m.  No request is specified, maximum cpu usage per Container is 1.  No limit is specified, ' +
        'cpu max limit to request ratio per Container is 4, but no request is specified or request is 0]',
    );
  });

  it('says the same thing once, however many containers break the same rule', () => {
    const lr = only({ min: res('50m') });
    expect(check(lr, validPod('p', 3, { requests: res('10m') }))).toBe('minimum cpu usage per Container is 50m, but request is 10m');
    expect(check(lr, pod('p', [ctr('a', { requests: res('10m') }), ctr('b', { requests: res('20m') })]))).toBe(
      '[minimum cpu usage per Container is 50m, but request is 10m, minimum cpu usage per Container is 50m, but request is 20m]',
    );
  });

  it('checks every Container item of the LimitRange, in order', () => {
    const lr = limitRange('abc', container({ min: res('10m') }), container({ max: res(undefined, '1Gi') }));
    expect(check(lr, validPod('p', 1, { requests: res('5m') }))).toBe(
      '[minimum cpu usage per Container is 10m, but request is 5m, maximum memory usage per Container is 1Gi.  No limit is specified]',
    );
  });
});

// ---------------------------------------------------------------- the plugin

interface Outcome {
  status?: Status;
  pod: Pod;
}

function attributes(p: Pod, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: resourceFor('', 'pods')!,
    namespace: 'test',
    name: p.metadata.name ?? '',
    object: p,
    user: { name: 'jane', groups: ['system:authenticated'] },
    dryRun: false,
    ...extra,
  };
}

/** A replica's caches holding these LimitRanges, by namespace. */
function context(byNamespace: Record<string, LimitRange[]>): AdmissionContext {
  return {
    cached: () => undefined,
    cachedList: (group, resource, namespace) => (group === '' && resource === 'limitranges' ? structuredClone(byNamespace[namespace] ?? []) : []),
    liveGet: (_g, _r, _n, _name, cb) => cb(undefined),
    randomSuffix: () => 'x7k2q',
  };
}

/** Runs one phase of a plugin, checking that it answers exactly once. */
function runPhase(plugin: AdmissionPlugin, phase: 'admit' | 'validate', a: AdmissionAttributes, ctx: AdmissionContext): Status | undefined {
  const fn = plugin[phase];
  if (!fn) throw new Error(`the plugin has no ${phase} function`);
  let calls = 0;
  let status: Status | undefined;
  fn.call(plugin, a, ctx, (err) => {
    calls++;
    status = err;
  });
  expect(calls, `${phase} calls done exactly once`).toBe(1);
  return status === undefined ? undefined : (structuredClone(status) as Status);
}

/** admit, then validate (if admit let it through), as the chain runs them. */
function admitAndValidate(plugin: AdmissionPlugin, p: Pod, ctx: AdmissionContext, extra: Partial<AdmissionAttributes> = {}): Outcome {
  const a = attributes(structuredClone(p), extra);
  const status = runPhase(plugin, 'admit', a, ctx) ?? runPhase(plugin, 'validate', a, ctx);
  return { ...(status ? { status } : {}), pod: normalized(a.object as Pod) };
}

describe('the LimitRanger plugin', () => {
  it('is named LimitRanger and has both phases', () => {
    const plugin = newLimitRanger();
    expect(plugin.name).toBe('LimitRanger');
    expect(typeof plugin.admit).toBe('function');
    expect(typeof plugin.validate).toBe('function');
  });

  it('applies every LimitRange of the namespace in turn; the last one that sets something writes the annotation', () => {
    const cpu = limitRange('a-cpu', container({ default: res('500m'), defaultRequest: res('100m') }));
    const memory = limitRange('b-memory', container({ default: res('250m', '256Mi'), defaultRequest: res('50m', '128Mi') }));
    const out = admitAndValidate(newLimitRanger(), validPod('web', 1, {}), context({ test: [cpu, memory], other: [limitRange('x', container({ default: res('9') }))] }));
    expect(out.status, 'no refusal').toBeUndefined();
    expect(resourcesOf(out.pod)).toEqual([{ name: 'foo-0', resources: { requests: res('100m', '128Mi'), limits: res('500m', '256Mi') } }]);
    expect(annotationOf(out.pod)).toBe('LimitRanger plugin set: memory request for container foo-0; memory limit for container foo-0');
  });

  it('keeps the first LimitRange\'s annotation when a later one sets nothing', () => {
    const first = limitRange('a', container({ default: res('500m', '1Gi'), defaultRequest: res('100m', '128Mi') }));
    const second = limitRange('b', container({ default: res('2') }));
    const out = admitAndValidate(newLimitRanger(), validPod('web', 1, {}), context({ test: [first, second] }));
    expect(annotationOf(out.pod)).toBe('LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0');
  });

  it('refuses with a 403 naming the pod and the first LimitRange\'s violations', () => {
    const lr1 = limitRange('a', container({ max: res(undefined, '1Gi') }));
    const lr2 = limitRange('b', container({ min: res('100m') }));
    const out = admitAndValidate(newLimitRanger(), pod('web', [ctr('a', { requests: res('50m', '1Gi'), limits: res('1', '2Gi') })]), context({ test: [lr1, lr2] }));
    expect(out.status).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      code: 403,
      reason: 'Forbidden',
      message: 'pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi',
    });
  });

  it('checks the pod as the mutating phase left it', () => {
    // the default limit 75m is below the container's own request: admission lets validation refuse it
    const lr = limitRange('l', container({ max: res('100m'), default: res('75m'), defaultRequest: res('50m') }));
    const out = admitAndValidate(newLimitRanger(), validPod('web', 1, { requests: res('200m') }), context({ test: [lr] }));
    expect(out.status?.message).toBe('pods "web" is forbidden: maximum cpu usage per Container is 100m, but request is 200m');
  });

  it('lets a fitting pod through', () => {
    const out = admitAndValidate(newLimitRanger(), validPod('web', 2, { requests: res('50m'), limits: res('100m') }), context({ test: [validLimitRange()] }));
    expect(out.status).toBeUndefined();
  });

  it('names a pod created with generateName by its prefix, as NewForbidden does before the name exists', () => {
    const p = pod('', [ctr('a', { requests: res('10m') })]);
    delete p.metadata.name;
    p.metadata.generateName = 'web-';
    const out = admitAndValidate(newLimitRanger(), p, context({ test: [limitRange('l', container({ min: res('50m') }))] }), { name: '' });
    expect(out.status?.message).toBe('pods "web-" is forbidden: minimum cpu usage per Container is 50m, but request is 10m');
  });

  it('leaves other resources, updates and subresources alone', () => {
    const plugin = newLimitRanger();
    const ctx = context({ test: [limitRange('l', container({ min: res('1'), default: res('2') }))] });
    const p = validPod('web', 1, {});
    for (const extra of [
      { operation: 'UPDATE' as const, oldObject: structuredClone(p) },
      { subresource: 'status' },
      { resource: resourceFor('', 'configmaps')! },
    ]) {
      const out = admitAndValidate(plugin, p, ctx, extra);
      expect(out, `a request with ${JSON.stringify(Object.keys(extra))}`).toEqual({ pod: normalized(p) });
    }
  });

  it('does nothing in a namespace without LimitRanges', () => {
    const p = validPod('web', 1, {});
    expect(admitAndValidate(newLimitRanger(), p, context({ other: [validLimitRange()] }))).toEqual({ pod: normalized(p) });
  });
});

// ---------------------------------------------------------------- the live API server

describe('in the live API server', () => {
  const limits: LimitRange = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'defaults' },
    spec: { limits: [{ type: 'Container', min: { cpu: '50m' }, max: { memory: '1Gi' }, default: { cpu: '500m' }, defaultRequest: { cpu: '100m', memory: '64Mi' }, maxLimitRequestRatio: { cpu: '10' } }] },
  };
  const podBody = (name: string, containers: Container[], initContainers: Container[] = []) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers, ...(initContainers.length ? { initContainers } : {}) },
  });
  const story = [
    podBody('bare', [ctr('app')]),
    podBody('limits-only', [ctr('app', { limits: { cpu: '2', memory: '512Mi' } })]),
    podBody('with-init', [ctr('app', { requests: { cpu: '200m' } })], [ctr('setup')]),
    podBody('too-big', [ctr('app', { limits: { memory: '2Gi' } })]),
    podBody('too-small', [ctr('app', { requests: { cpu: '10m' }, limits: { cpu: '10m' } })]),
    podBody('too-spiky', [ctr('app', { requests: { cpu: '100m' }, limits: { cpu: '1500m' } })]),
    podBody('request-over-default-limit', [ctr('app', { requests: { cpu: '1' } })]),
  ];

  /** Each pod's answer (code and message) and, for a stored pod, its containers' resources and annotation. */
  function run(plugin: AdmissionPlugin, whose: string) {
    try {
      return story.map(runStory(plugin));
    } catch (e) {
      throw new Error(`${whose} LimitRanger threw inside the API server: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
  }

  function runStory(plugin: AdmissionPlugin) {
    const server = liveServer(plugin);
    const created = server.send({ verb: 'create', resource: 'limitranges', namespace: 'default', body: structuredClone(limits) });
    expect(created.code, 'creating the LimitRange').toBe(201);
    server.wait(2_000);
    return (body: (typeof story)[number]) => {
      const r = server.send({ verb: 'create', resource: 'pods', namespace: 'default', body: structuredClone(body) });
      if (r.code !== 201) return { pod: body.metadata.name, code: r.code, message: (r.body as Status).message };
      const stored = r.body as Pod;
      return { pod: body.metadata.name, code: r.code, resources: resourcesOf(normalized(stored)), annotation: annotationOf(stored) ?? null };
    };
  }

  it('defaults and refuses pods exactly as the reference does, inside the real admission chain', () => {
    const expected = run(reference.newLimitRanger(), 'the reference');
    const got = run(newLimitRanger(), 'your');
    for (let i = 0; i < story.length; i++) {
      expect(got[i], `kubectl create of pod "${story[i]!.metadata.name}" (${JSON.stringify(story[i]!.spec)})`).toEqual(expected[i]);
    }
    // and what the reference does is what the chapter says
    expect(expected[0]).toMatchObject({ code: 201, resources: [{ name: 'app', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '1Gi' } } }] });
    expect(expected[1]).toMatchObject({ code: 201, resources: [{ name: 'app', resources: { requests: { cpu: '2', memory: '512Mi' }, limits: { cpu: '2', memory: '512Mi' } } }], annotation: null });
    expect(expected[3]).toEqual({ pod: 'too-big', code: 403, message: 'pods "too-big" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi' });
    expect(expected[6]!.code, 'a request above the default limit fails validation (422) before LimitRanger validates').toBe(422);
  });
});

// ---------------------------------------------------------------- differential test

const SEED = 20_260_308;

/** Canonical quantity strings, as the API server stores them: common values (so limits, requests and bounds meet) and random ones. */
const cpuArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('0', '10m', '50m', '100m', '250m', '500m', '750m', '1', '1500m', '2', '4') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4000 }).map((m) => Quantity.fromMilli(m).toString()) },
);
const memoryArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('0', '32Mi', '64Mi', '128Mi', '129Mi', '256Mi', '500M', '512Mi', '1Gi', '1500M', '2Gi') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2048 }).map((n) => Quantity.fromInt(n * 1024 * 1024, 'BinarySI').toString()) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => Quantity.fromInt(n * 1_000_000, 'DecimalSI').toString()) },
);
const POOLS: Record<string, fc.Arbitrary<string>> = { cpu: cpuArb, memory: memoryArb, 'ephemeral-storage': fc.constantFrom('1Gi', '2Gi', '5G', '10Gi') };
const ratioArb = fc.oneof(fc.integer({ min: 1, max: 10 }).map(String), fc.integer({ min: 1001, max: 5000 }).map((m) => Quantity.fromMilli(m).toString()));

const byValue = (a: string, b: string) => Quantity.mustParse(a).cmp(Quantity.mustParse(b));
const BOUNDS = ['min', 'defaultRequest', 'default', 'max'] as const;

/** One resource's bounds: usually ordered min <= defaultRequest <= default <= max (as validation demands), some left out; sometimes in any order. */
const boundsArb = (resource: string) =>
  fc.tuple(fc.array(POOLS[resource]!, { minLength: 4, maxLength: 4 }), fc.constantFrom(true, true, true, false), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }));

const itemArb: fc.Arbitrary<LimitRangeItem> = fc
  .tuple(
    fc.record({ cpu: boundsArb('cpu'), memory: boundsArb('memory'), 'ephemeral-storage': boundsArb('ephemeral-storage') }, { requiredKeys: [] }),
    fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ cpu: ratioArb, memory: ratioArb }, { requiredKeys: [] }) }),
  )
  .map(([bounds, ratio]) => {
    const item: LimitRangeItem = { type: 'Container' };
    for (const [resource, [values, ordered, present]] of Object.entries(bounds)) {
      const vs = ordered ? [...values].sort(byValue) : values;
      BOUNDS.forEach((field, i) => {
        if (present[i]) (item[field] ??= {})[resource] = vs[i]!;
      });
    }
    if (ratio) item.maxLimitRequestRatio = ratio as ResourceList;
    return item;
  });

const limitRangeArb = (name: string) => fc.array(itemArb, { minLength: 1, maxLength: 2 }).map((items) => limitRange(name, ...items));

const listArb = fc.record({ cpu: cpuArb, memory: memoryArb, 'ephemeral-storage': POOLS['ephemeral-storage']! }, { requiredKeys: [] }) as fc.Arbitrary<ResourceList>;
const containerArb = (name: string) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(null).map(() => ctr(name)) },
    { weight: 3, arbitrary: fc.record({ requests: listArb, limits: listArb }, { requiredKeys: [] }).map((r) => ctr(name, r)) },
  );

const podArb: fc.Arbitrary<Pod> = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 2 }), fc.option(fc.constantFrom<Record<string, string>>({ team: 'web' }, { 'kubernetes.io/limit-ranger': 'old' }), { nil: undefined }))
  .chain(([n, m, annotations]) =>
    fc.tuple(
      fc.tuple(...Array.from({ length: n }, (_, i) => containerArb(`c${i}`))),
      m === 0 ? fc.constant([] as Container[]) : fc.tuple(...Array.from({ length: m }, (_, i) => containerArb(`init${i}`))),
    ).map(([cs, inits]) => pod('web', cs, inits, annotations)),
  );

/**
 * Runs a differential property with a fixed seed; on failure, reports the seed, the path to replay
 * it and the smallest failing case fast-check found, as `compare` describes it.
 */
function differential<T>(what: string, arb: fc.Arbitrary<T>, numRuns: number, compare: (input: T) => string | undefined): void {
  const details = fc.check(
    fc.property(arb, (input) => {
      const problem = compare(input);
      if (problem !== undefined) throw new Error(problem);
    }),
    { seed: SEED, numRuns, interruptAfterTimeLimit: 6_000 },
  );
  if (details.failed && details.counterexample) {
    const [input] = details.counterexample;
    let problem: string;
    try {
      problem = compare(input) ?? String(details.errorInstance);
    } catch (e) {
      problem = `${JSON.stringify(input)}\nyour code threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    expect.fail(
      `${what} differs from the reference on a generated case (seed ${details.seed}, path ${details.counterexamplePath}). ` +
        `Smallest failing case found:\n${problem}`,
    );
  }
  expect(details.numRuns, `${what}: generated cases run`).toBe(numRuns);
}

const showLimitRange = (lr: LimitRange) => `  LimitRange ${lr.metadata.name}: ${JSON.stringify(lr.spec?.limits)}`;
const showPod = (p: Pod) =>
  `  Pod ${p.metadata.name}${p.metadata.annotations ? ` annotations ${JSON.stringify(p.metadata.annotations)}` : ''}: ${JSON.stringify(resourcesOf(normalized(p)))}`;
const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);

describe('differential test against the reference', () => {
  it('podMutateLimitFunc agrees on generated LimitRanges and pods: resources and annotation', () => {
    differential('podMutateLimitFunc', fc.tuple(limitRangeArb('generated'), podArb), 300, ([lr, p]) => {
      const expected = structuredClone(p);
      reference.podMutateLimitFunc(lr, expected);
      const got = mutated(lr, p);
      if (same(got, normalized(expected))) return undefined;
      return `${showLimitRange(lr)}\n${showPod(p)}\nexpected after defaulting:\n${showPod(expected)}\n  annotation ${JSON.stringify(annotationOf(expected) ?? null)}\ngot:\n${showPod(got)}\n  annotation ${JSON.stringify(annotationOf(got) ?? null)}`;
    });
  });

  it('podValidateLimitFunc agrees on generated LimitRanges and pods: the exact message', () => {
    differential('podValidateLimitFunc', fc.tuple(limitRangeArb('generated'), podArb, fc.boolean()), 300, ([lr, p, defaulted]) => {
      // half the time, the pod as the mutating phase leaves it (defaults in place)
      const input = structuredClone(p);
      if (defaulted) reference.podMutateLimitFunc(lr, input);
      const expected = reference.podValidateLimitFunc(lr, input);
      const got: unknown = podValidateLimitFunc(structuredClone(lr), structuredClone(input));
      if (got === expected) return undefined;
      return `${showLimitRange(lr)}\n${showPod(input)}\nexpected ${JSON.stringify(expected)}\ngot      ${JSON.stringify(got)}`;
    });
  });

  it('the plugin agrees on generated namespaces (several LimitRanges) and pods: the pod it stores or the refusal', () => {
    const arb = fc.tuple(fc.tuple(limitRangeArb('a'), limitRangeArb('b'), limitRangeArb('c')), fc.integer({ min: 0, max: 3 }), podArb);
    differential('the LimitRanger plugin', arb, 200, ([all, count, p]) => {
      const ctx = context({ test: all.slice(0, count) });
      const expected = admitAndValidate(reference.newLimitRanger(), p, ctx);
      const got = admitAndValidate(newLimitRanger(), p, ctx);
      const view = (o: Outcome) => (o.status ? `refused: ${JSON.stringify(o.status.message)} (code ${o.status.code})` : `admitted:\n${showPod(o.pod)}\n  annotation ${JSON.stringify(annotationOf(o.pod) ?? null)}`);
      if (same(view(got), view(expected))) return undefined;
      return `${all.slice(0, count).map(showLimitRange).join('\n') || '  (no LimitRanges)'}\n${showPod(p)}\nexpected ${view(expected)}\ngot      ${view(got)}`;
    });
  });
});
