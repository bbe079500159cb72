// Cases ported from pkg/printers/internalversion/printers_test.go: TestPrintPod,
// TestPrintPodWithRestartableInitContainer, TestPrintPodwide, TestPrintPodConditions.
// "time.Now().Add(-10s)" becomes NOW - 10 s on the simulated clock.
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodStatus } from '../../../api/index.ts';
import { rfc3339 } from '../../../api/index.ts';
import { podRow } from './pod.ts';

const S = 1000;
const DAY = 86_400 * S;
const NOW = 100 * DAY;
const ago = (ms: number): string => rfc3339(NOW - ms);
const containers = (n: number) => Array.from({ length: n }, () => ({ name: '' }));
const running = { running: {} };
const restartedAgo = (ms: number) => ({ terminated: { exitCode: 0, finishedAt: ago(ms) } });
const cs = (s: Partial<ContainerStatus>): ContainerStatus => ({
  name: '',
  ready: false,
  restartCount: 0,
  image: '',
  imageID: '',
  ...s,
});

function pod(name: string, spec: Partial<Pod['spec']>, status: PodStatus, deleted = false): Pod {
  return {
    metadata: { name, ...(deleted ? { deletionTimestamp: ago(10 * S) } : {}) },
    spec: { containers: containers(1), ...spec },
    status,
  };
}

const always = (name: string) => ({ name, restartPolicy: 'Always' }) as unknown as { name: string };

describe('printPod (TestPrintPod)', () => {
  it.each<[Pod, string[]]>([
    [
      pod(
        'test1',
        { containers: containers(2) },
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            cs({ ready: true, restartCount: 3, state: running }),
            cs({ restartCount: 3 }),
          ],
        },
      ),
      ['test1', '1/2', 'podPhase', '6', '<unknown>'],
    ],
    [
      pod(
        'test2',
        { containers: containers(2) },
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            cs({ ready: true, restartCount: 3, state: running }),
            cs({ restartCount: 3, state: { waiting: { reason: 'ContainerWaitingReason' } } }),
          ],
        },
      ),
      ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>'],
    ],
    [
      pod(
        'test3',
        { containers: containers(2) },
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            cs({ restartCount: 3, state: { waiting: { reason: 'ContainerWaitingReason' } } }),
            cs({
              restartCount: 3,
              state: { terminated: { reason: 'ContainerTerminatedReason', exitCode: 0 } },
            }),
          ],
        },
      ),
      ['test3', '0/2', 'ContainerWaitingReason', '6', '<unknown>'],
    ],
    [
      pod(
        'test4',
        { containers: containers(2) },
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            cs({ ready: true, restartCount: 3, state: running }),
            cs({ ready: true, restartCount: 3 }),
          ],
        },
      ),
      ['test4', '1/2', 'podPhase', '6', '<unknown>'],
    ],
    [
      pod(
        'test5',
        { containers: containers(2) },
        {
          reason: 'podReason',
          phase: 'podPhase' as never,
          containerStatuses: [
            cs({ ready: true, restartCount: 3, state: running }),
            cs({ ready: true, restartCount: 3 }),
          ],
        },
      ),
      ['test5', '1/2', 'podReason', '6', '<unknown>'],
    ],
    [
      pod(
        'test6',
        { containers: containers(2) },
        {
          phase: 'Running',
          containerStatuses: [
            cs({
              ready: true,
              restartCount: 3,
              state: { terminated: { reason: 'Completed', exitCode: 0 } },
            }),
            cs({ ready: true, restartCount: 3, state: running }),
          ],
        },
      ),
      ['test6', '1/2', 'NotReady', '6', '<unknown>'],
    ],
    [
      pod(
        'test6',
        { containers: containers(2) },
        {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            cs({
              ready: true,
              restartCount: 3,
              state: { terminated: { reason: 'Completed', exitCode: 0 } },
            }),
            cs({ ready: true, restartCount: 3, state: running }),
          ],
        },
      ),
      ['test6', '1/2', 'Running', '6', '<unknown>'],
    ],
    [
      pod(
        'test7',
        { initContainers: containers(1) },
        {
          phase: 'podPhase' as never,
          initContainerStatuses: [
            cs({ restartCount: 3, state: running, lastState: restartedAgo(10 * S) }),
          ],
          containerStatuses: [cs({ state: { waiting: {} } })],
        },
      ),
      ['test7', '0/1', 'Init:0/1', '3 (10s ago)', '<unknown>'],
    ],
    [
      pod(
        'test8',
        { initContainers: containers(2) },
        {
          phase: 'podPhase' as never,
          initContainerStatuses: [
            cs({ restartCount: 3, state: running, lastState: restartedAgo(10 * S) }),
            cs({ state: { waiting: {} } }),
          ],
          containerStatuses: [cs({ state: { waiting: {} } })],
        },
      ),
      ['test8', '0/1', 'Init:0/2', '3 (10s ago)', '<unknown>'],
    ],
    [
      pod(
        'test9',
        { initContainers: containers(2) },
        {
          phase: 'podPhase' as never,
          initContainerStatuses: [
            cs({ state: { terminated: { exitCode: 0 } } }),
            cs({ restartCount: 3, state: running, lastState: restartedAgo(10 * S) }),
          ],
          containerStatuses: [cs({ state: { waiting: {} } })],
        },
      ),
      ['test9', '0/1', 'Init:1/2', '3 (10s ago)', '<unknown>'],
    ],
    [
      pod(
        'test10',
        { initContainers: containers(2) },
        {
          phase: 'podPhase' as never,
          initContainerStatuses: [
            cs({
              restartCount: 2,
              state: { terminated: { exitCode: 0 } },
              lastState: restartedAgo(120 * S),
            }),
            cs({ restartCount: 3, state: running, lastState: restartedAgo(10 * S) }),
          ],
          containerStatuses: [cs({ state: { waiting: {} } })],
        },
      ),
      ['test10', '0/1', 'Init:1/2', '5 (10s ago)', '<unknown>'],
    ],
    [
      pod(
        'test11',
        { initContainers: containers(1) },
        {
          phase: 'Running',
          initContainerStatuses: [
            cs({
              restartCount: 2,
              state: { terminated: { exitCode: 0 } },
              lastState: restartedAgo(120 * S),
            }),
          ],
          containerStatuses: [
            cs({ restartCount: 4, state: running, lastState: restartedAgo(20 * S) }),
          ],
        },
      ),
      ['test11', '0/1', 'Running', '4 (20s ago)', '<unknown>'],
    ],
    [
      pod(
        'test12',
        {},
        {
          phase: 'Running',
          containerStatuses: [
            cs({ ready: true, restartCount: 3, state: running, lastState: restartedAgo(5 * DAY) }),
          ],
        },
      ),
      ['test12', '1/1', 'Running', '3 (5d ago)', '<unknown>'],
    ],
    [
      pod(
        'test13',
        { containers: containers(2) },
        {
          phase: 'Running',
          containerStatuses: [
            cs({ ready: true, state: running }),
            cs({ ready: true, restartCount: 3, state: running, lastState: restartedAgo(10 * DAY) }),
          ],
        },
      ),
      ['test13', '2/2', 'Running', '3 (10d ago)', '<unknown>'],
    ],
    [
      pod(
        'test14',
        { containers: containers(2) },
        {
          phase: 'Running',
          containerStatuses: [
            cs({ ready: true, restartCount: 6, state: running, lastState: restartedAgo(5 * DAY) }),
            cs({ ready: true, restartCount: 3, state: running, lastState: restartedAgo(20 * DAY) }),
          ],
        },
      ),
      ['test14', '2/2', 'Running', '9 (5d ago)', '<unknown>'],
    ],
    [
      pod(
        'test15',
        { containers: containers(2) },
        {
          phase: 'podPhase' as never,
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      ),
      ['test15', '0/2', 'SchedulingGated', '0', '<unknown>'],
    ],
    [
      pod(
        'test16',
        {},
        {
          phase: 'Succeeded',
          containerStatuses: [cs({ state: { terminated: { reason: 'Completed', exitCode: 0 } } })],
        },
      ),
      ['test16', '0/1', 'Completed', '0', '<unknown>'],
    ],
    [
      pod(
        'test17',
        {},
        {
          phase: 'Failed',
          containerStatuses: [cs({ state: { terminated: { reason: 'Error', exitCode: 1 } } })],
        },
      ),
      ['test17', '0/1', 'Error', '0', '<unknown>'],
    ],
    [
      pod(
        'test18',
        {},
        {
          phase: 'Succeeded',
          containerStatuses: [cs({ state: { terminated: { reason: 'Completed', exitCode: 0 } } })],
        },
        true,
      ),
      ['test18', '0/1', 'Completed', '0', '<unknown>'],
    ],
    [
      pod('test19', {}, { phase: 'Running', containerStatuses: [cs({ state: running })] }, true),
      ['test19', '0/1', 'Terminating', '0', '<unknown>'],
    ],
    [
      pod('test20', {}, { phase: 'Pending' }, true),
      ['test20', '0/1', 'Terminating', '0', '<unknown>'],
    ],
  ])('%#', (p, cells) => expect(podRow(p, NOW, false)).toEqual(cells));
});

describe('printPod with sidecars (TestPrintPodWithRestartableInitContainer)', () => {
  const sidecars = {
    initContainers: [always('restartable-init-1'), always('restartable-init-2')],
  } as Partial<Pod['spec']>;
  it.each<[Pod, string[]]>([
    [
      pod('test1', sidecars, {
        phase: 'Pending',
        conditions: [{ type: 'Initialized', status: 'False' }],
        initContainerStatuses: [
          cs({
            name: 'restartable-init-1',
            restartCount: 3,
            state: running,
            started: false,
            lastState: restartedAgo(10 * S),
          }),
          cs({ name: 'restartable-init-2', state: { waiting: {} }, started: false }),
        ],
        containerStatuses: [cs({ state: { waiting: {} } })],
      }),
      ['test1', '0/3', 'Init:0/2', '3 (10s ago)', '<unknown>'],
    ],
    [
      pod('test1', sidecars, {
        phase: 'Pending',
        conditions: [{ type: 'Initialized', status: 'False' }],
        initContainerStatuses: [
          cs({
            name: 'restartable-init-1',
            restartCount: 3,
            state: running,
            started: true,
            lastState: restartedAgo(10 * S),
          }),
          cs({ name: 'restartable-init-2', state: running, started: false }),
        ],
        containerStatuses: [cs({ state: { waiting: {} } })],
      }),
      ['test1', '0/3', 'Init:1/2', '3 (10s ago)', '<unknown>'],
    ],
    [
      pod('test2', sidecars, {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [
          cs({
            name: 'restartable-init-1',
            restartCount: 3,
            state: running,
            started: true,
            lastState: restartedAgo(10 * S),
          }),
          cs({ name: 'restartable-init-2', state: running, started: true }),
        ],
        containerStatuses: [
          cs({ ready: true, restartCount: 4, state: running, lastState: restartedAgo(20 * S) }),
        ],
      }),
      ['test2', '1/3', 'Running', '7 (10s ago)', '<unknown>'],
    ],
    [
      pod('test3', sidecars, {
        phase: 'Succeeded',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [
          cs({
            name: 'restartable-init-1',
            restartCount: 3,
            state: { terminated: { reason: 'Error', exitCode: 137 } },
            started: false,
            lastState: restartedAgo(10 * S),
          }),
          cs({
            name: 'restartable-init-2',
            state: { terminated: { reason: 'Error', exitCode: 137 } },
            started: false,
          }),
        ],
        containerStatuses: [
          cs({
            restartCount: 4,
            state: { terminated: { reason: 'Completed', exitCode: 0 } },
            lastState: restartedAgo(20 * S),
          }),
        ],
      }),
      ['test3', '0/3', 'Completed', '7 (10s ago)', '<unknown>'],
    ],
    [
      pod(
        'test4',
        {
          initContainers: [{ name: 'init1', image: 'initimage' }, always('sidecar1')],
          containers: [{ name: 'container1', image: 'containerimage' }],
        } as Partial<Pod['spec']>,
        {
          phase: 'Running',
          initContainerStatuses: [
            cs({ name: 'initinvalid' }),
            cs({ name: 'init1' }),
            cs({ name: 'sidecar1' }),
          ],
          containerStatuses: [cs({ name: 'containerinvalid' }), cs({ name: 'container1' })],
        },
      ),
      ['test4', '0/2', 'Init:0/2', '0', '<unknown>'],
    ],
  ])('%#', (p, cells) => expect(podRow(p, NOW, false)).toEqual(cells));
});

describe('printPod wide (TestPrintPodwide)', () => {
  const gates = {
    containers: containers(2),
    nodeName: 'test1',
    readinessGates: [
      { conditionType: 'condition1' },
      { conditionType: 'condition2' },
      { conditionType: 'condition3' },
    ],
  } as Partial<Pod['spec']>;
  const statuses = [cs({ ready: true, restartCount: 3, state: running }), cs({ restartCount: 3 })];
  const conditions = [
    { type: 'condition1', status: 'False' as const },
    { type: 'condition2', status: 'True' as const },
  ];
  it.each<[Pod, string[]]>([
    [
      pod('test1', gates, {
        phase: 'podPhase' as never,
        conditions,
        podIPs: [{ ip: '1.1.1.1' }],
        containerStatuses: statuses,
        nominatedNodeName: 'node1',
      }),
      ['test1', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3'],
    ],
    [
      pod('test1', gates, {
        phase: 'podPhase' as never,
        conditions,
        podIPs: [{ ip: '1.1.1.1' }, { ip: '2001:db8::' }],
        containerStatuses: statuses,
        nominatedNodeName: 'node1',
      }),
      ['test1', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3'],
    ],
    [
      pod(
        'test2',
        { containers: containers(2), nodeName: '' },
        {
          phase: 'podPhase' as never,
          containerStatuses: [
            cs({ ready: true, restartCount: 3, state: running }),
            cs({ restartCount: 3, state: { waiting: { reason: 'ContainerWaitingReason' } } }),
          ],
        },
      ),
      [
        'test2',
        '1/2',
        'ContainerWaitingReason',
        '6',
        '<unknown>',
        '<none>',
        '<none>',
        '<none>',
        '<none>',
      ],
    ],
  ])('%#', (p, cells) => expect(podRow(p, NOW, true)).toEqual(cells));
});

describe('printPod phases (TestPrintPodConditions) and the kubelet reasons a learner meets', () => {
  const statuses = [cs({ ready: true, restartCount: 3, state: running }), cs({ restartCount: 3 })];
  it.each<[string, PodStatus, string]>([
    ['Running', { phase: 'Running', containerStatuses: statuses }, 'Running'],
    ['Succeeded', { phase: 'Succeeded', containerStatuses: statuses }, 'Succeeded'],
    ['Failed', { phase: 'Failed', containerStatuses: statuses }, 'Failed'],
    [
      'CrashLoopBackOff',
      {
        phase: 'Running',
        containerStatuses: [
          cs({ restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } } }),
        ],
      },
      'CrashLoopBackOff',
    ],
    [
      'ImagePullBackOff',
      {
        phase: 'Pending',
        containerStatuses: [cs({ state: { waiting: { reason: 'ImagePullBackOff' } } })],
      },
      'ImagePullBackOff',
    ],
    [
      'exit code without a reason',
      { phase: 'Running', containerStatuses: [cs({ state: { terminated: { exitCode: 2 } } })] },
      'ExitCode:2',
    ],
    [
      'signal without a reason',
      {
        phase: 'Running',
        containerStatuses: [cs({ state: { terminated: { exitCode: 137, signal: 9 } } })],
      },
      'Signal:9',
    ],
    [
      'init container failed',
      {
        phase: 'Pending',
        initContainerStatuses: [cs({ state: { terminated: { exitCode: 1, reason: 'Error' } } })],
      },
      'Init:Error',
    ],
    [
      'init container crash looping',
      {
        phase: 'Pending',
        initContainerStatuses: [cs({ state: { waiting: { reason: 'CrashLoopBackOff' } } })],
      },
      'Init:CrashLoopBackOff',
    ],
    [
      'init container exit code',
      { phase: 'Pending', initContainerStatuses: [cs({ state: { terminated: { exitCode: 3 } } })] },
      'Init:ExitCode:3',
    ],
  ])('%s', (_name, status, want) => {
    const spec = status.initContainerStatuses
      ? { initContainers: containers(1), containers: containers(2) }
      : { containers: containers(2) };
    expect(podRow(pod('p', spec, status), NOW, false)[2]).toBe(want);
  });
  it('node lost while deleting prints Unknown', () => {
    expect(
      podRow(pod('p', {}, { phase: 'Running', reason: 'NodeLost' }, true), NOW, false)[2],
    ).toBe('Unknown');
  });
});
