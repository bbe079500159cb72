import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, RestartPolicy } from '../api/index.ts';
import { admitPod } from './admission.ts';
import { getPhase, podPhase, qosClass } from './status.ts';

const pod = (restartPolicy: RestartPolicy, names: string[], resources: Record<string, unknown>[] = []): Pod =>
  ({ metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { restartPolicy, containers: names.map((name, i) => ({ name, image: 'nginx', ...(resources[i] ? { resources: resources[i] } : {}) })) } }) as Pod;

const running: ContainerStatus['state'] = { running: {} };
const exited = (exitCode: number): ContainerStatus['state'] => ({ terminated: { exitCode } });
const waiting: ContainerStatus['state'] = { waiting: { reason: 'ContainerCreating' } };
const cs = (name: string, state: ContainerStatus['state'], last?: number): ContainerStatus =>
  ({ name, state, lastState: last === undefined ? {} : { terminated: { exitCode: last } }, ready: false, restartCount: 0, image: '', imageID: '' });

describe('podPhase (getPhase)', () => {
  it.each<[string, RestartPolicy, ContainerStatus[], string]>([
    ['a container still being created', 'Always', [cs('a', running), cs('b', waiting)], 'Pending'],
    ['all running', 'Always', [cs('a', running), cs('b', running)], 'Running'],
    ['crash looping (waiting after a termination) counts as stopped', 'Always', [cs('a', { waiting: { reason: 'CrashLoopBackOff' } }, 1)], 'Running'],
    ['Always: all exited 0 is still Running (restarting)', 'Always', [cs('a', exited(0))], 'Running'],
    ['OnFailure: all exited 0', 'OnFailure', [cs('a', exited(0))], 'Succeeded'],
    ['OnFailure: one failed, restarting', 'OnFailure', [cs('a', exited(1))], 'Running'],
    ['Never: one failed', 'Never', [cs('a', exited(0)), cs('b', exited(2))], 'Failed'],
    ['Never: all succeeded', 'Never', [cs('a', exited(0)), cs('b', exited(0))], 'Succeeded'],
    ['a status is missing', 'Always', [cs('a', running)], 'Pending'],
  ])('%s -> %s', (_name, policy, statuses, phase) => {
    const names = statuses.length === 1 && _name.includes('missing') ? ['a', 'b'] : statuses.map((s) => s.name);
    expect(podPhase(pod(policy, names), statuses)).toBe(phase);
  });
});

describe('getPhase with init containers and podIsTerminal', () => {
  const withInit = (policy: RestartPolicy, init: string[], names: string[], annotations?: Record<string, string>): Pod =>
    ({ metadata: { name: 'p', namespace: 'default', uid: 'u', ...(annotations ? { annotations } : {}) }, spec: { restartPolicy: policy, initContainers: init.map((name) => ({ name, image: 'busybox' })), containers: names.map((name) => ({ name, image: 'nginx' })) } }) as Pod;
  it.each<[string, Pod, ContainerStatus[], boolean, string]>([
    ['an init container still running', withInit('Always', ['i'], ['a']), [cs('i', running), cs('a', waiting)], false, 'Pending'],
    ['init done, app running', withInit('Always', ['i'], ['a']), [cs('i', exited(0)), cs('a', running)], false, 'Running'],
    ['init failed with Never', withInit('Never', ['i'], ['a']), [cs('i', exited(1)), cs('a', waiting)], false, 'Failed'],
    ['init failed with OnFailure: retried, Pending', withInit('OnFailure', ['i'], ['a']), [cs('i', { waiting: { reason: 'CrashLoopBackOff' } }, 1), cs('a', waiting)], false, 'Pending'],
    ['init status missing', withInit('Always', ['i'], ['a']), [cs('a', running)], false, 'Pending'],
    ['init waiting after a success counts as done', withInit('Always', ['i'], ['a']), [cs('i', { waiting: {} }, 0), cs('a', running)], false, 'Running'],
    ['terminal pod with Always: all exited 0', withInit('Always', [], ['a']), [cs('a', exited(0))], true, 'Succeeded'],
    ['terminal pod with Always: one failed', withInit('Always', [], ['a', 'b']), [cs('a', exited(0)), cs('b', exited(137))], true, 'Failed'],
    ['terminal static pod keeps the policy rule', withInit('Always', [], ['a'], { 'kubernetes.io/config.source': 'file' }), [cs('a', exited(0))], true, 'Running'],
    ['waiting after a success is stopped but not succeeded', withInit('OnFailure', [], ['a']), [cs('a', { waiting: { reason: 'CrashLoopBackOff' } }, 0)], false, 'Running'],
  ])('%s -> %s', (_name, pod, statuses, terminal, phase) => {
    expect(getPhase(pod, statuses, terminal)).toBe(phase);
  });
});

describe('qosClass (GetPodQOS)', () => {
  it.each([
    ['no requests or limits', [{}], 'BestEffort'],
    ['limits only (requests default to them)', [{ limits: { cpu: '500m', memory: '128Mi' } }], 'Guaranteed'],
    ['requests equal limits in another spelling', [{ requests: { cpu: '0.5', memory: '128Mi' }, limits: { cpu: '500m', memory: '128Mi' } }], 'Guaranteed'],
    ['requests below limits', [{ requests: { cpu: '100m' }, limits: { cpu: '500m', memory: '128Mi' } }], 'Burstable'],
    ['one container without limits', [{ limits: { cpu: '1', memory: '1Gi' } }, {}], 'Burstable'],
  ])('%s -> %s', (_name, resources, qos) => {
    expect(qosClass(pod('Always', resources.map((_, i) => `c${i}`), resources))).toBe(qos);
  });
});

describe('admitPod (lifecycle predicate)', () => {
  const allocatable = { cpu: '4', memory: '8Gi', pods: '2' };
  const big = pod('Always', ['a'], [{ requests: { cpu: '3' } }]);
  it.each([
    ['fits', [], pod('Always', ['a'], [{ requests: { cpu: '1' } }]), { ok: true }],
    ['cpu used up', [big], pod('Always', ['a'], [{ requests: { cpu: '1500m' } }]),
      { ok: false, reason: 'OutOfcpu', message: "Node didn't have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000" }],
    ['memory too big', [], pod('Always', ['a'], [{ requests: { memory: '9Gi' } }]),
      { ok: false, reason: 'OutOfmemory', message: "Node didn't have enough resource: memory, requested: 9663676416, used: 0, capacity: 8589934592" }],
    ['pod count', [big, big], pod('Always', ['a']), { ok: false, reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2" }],
  ])('%s', (_name, admitted, candidate, verdict) => {
    expect(admitPod(candidate, admitted, allocatable)).toEqual(verdict);
  });
});
