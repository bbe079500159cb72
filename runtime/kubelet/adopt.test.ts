import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import type { ContainerInfo } from '../cri/index.ts';
import { adoptFromRuntime, restartCountsAfterReboot } from './adopt.ts';

const info = (id: string, name: string, sandboxId: string, createdAtMs: number, state: ContainerInfo['state'] = 'running'): ContainerInfo =>
  ({ id, name, sandboxId, image: 'nginx', imageRef: 'docker.io/library/nginx:latest', imageID: '', state, createdAtMs });
const pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1' },
  spec: { containers: [{ name: 'app', image: 'nginx' }, { name: 'probe', image: 'nginx', readinessProbe: { httpGet: { port: 80 } } }] },
  status: {
    podIP: '10.244.1.5', startTime: '2026-01-01T00:00:05Z',
    containerStatuses: [
      { name: 'app', ready: true, restartCount: 2, containerID: 'containerd://c2', image: '', imageID: '' },
      { name: 'probe', ready: false, restartCount: 0, containerID: 'containerd://p1', image: '', imageID: '' },
    ],
  },
} as unknown as Pod;

const runtime = (sandboxes: { id: string; podUid: string; ready: boolean }[], containers: ContainerInfo[]) => ({
  listPodSandboxes: () => sandboxes,
  listContainers: (sandboxId?: string) => containers.filter((c) => sandboxId === undefined || c.sandboxId === sandboxId),
});

describe('adoptFromRuntime (computePodActions after a kubelet restart)', () => {
  it('takes the ready sandbox of the pod: newest instance current, the one before previous, counts and readiness as last reported', () => {
    const got = adoptFromRuntime(runtime(
      [{ id: 'other', podUid: 'u2', ready: true }, { id: 's1', podUid: 'u1', ready: true }],
      [info('c1', 'app', 's1', 1000, 'exited'), info('c2', 'app', 's1', 2000), info('p1', 'probe', 's1', 1500), info('x', 'app', 'other', 3000)],
    ), pod);
    expect(got?.sandboxId).toBe('s1');
    expect(got?.podIP).toBe('10.244.1.5');
    expect(got?.startTimeMs).toBe(5000);
    expect(got?.containers.get('app')).toMatchObject({ current: { id: 'c2' }, previous: { id: 'c1' }, restartCount: 2, ready: true, started: true });
    expect(got?.containers.get('probe')).toMatchObject({ current: { id: 'p1' }, restartCount: 0, ready: false });
  });
  it.each([
    ['no sandbox for the pod (a rebooted machine)', [{ id: 's9', podUid: 'u2', ready: true }]],
    ['only a stopped sandbox', [{ id: 's1', podUid: 'u1', ready: false }]],
  ])('%s: nothing to adopt', (_name, sandboxes) => {
    expect(adoptFromRuntime(runtime(sandboxes, []), pod)).toBeUndefined();
  });
});

describe('restartCountsAfterReboot', () => {
  it('counts one more start for each container that ran before, none for a pod that never ran', () => {
    expect(restartCountsAfterReboot(pod)).toEqual(new Map([['app', 3], ['probe', 1]]));
    expect(restartCountsAfterReboot({ ...pod, status: {} })).toEqual(new Map());
  });
});
