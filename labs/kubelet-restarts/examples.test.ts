// Visible examples for the kubelet-restarts lab: read them, run them, add your own.
// `npm run grade -- kubelet-restarts --examples`
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod } from '../../runtime/api/index.ts';
import type { ContainerHistory } from '../../runtime/kubelet/index.ts';
import { getPhase, restartDecision } from '@lab/submission';

// A pod with one init container (migrate) and one app container (web).
const pod = (restartPolicy: 'Always' | 'OnFailure' | 'Never'): Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: 'uid-1' },
  spec: { restartPolicy, initContainers: [{ name: 'migrate', image: 'busybox:1.36' }], containers: [{ name: 'web', image: 'nginx:1.27' }] },
});
const status = (name: string, state: ContainerStatus['state'], lastExit?: number): ContainerStatus => ({
  name, state, lastState: lastExit === undefined ? {} : { terminated: { exitCode: lastExit } }, ready: false, restartCount: 0, image: '', imageID: '',
});

describe('getPhase examples', () => {
  it('init containers first: Pending while migrate runs, Running once it exited 0, Failed with Never if it failed', () => {
    expect(getPhase(pod('Always'), [status('web', { waiting: { reason: 'PodInitializing' } }), status('migrate', { running: {} })], false)).toBe('Pending');
    expect(getPhase(pod('Always'), [status('web', { running: {} }), status('migrate', { terminated: { exitCode: 0 } })], false)).toBe('Running');
    expect(getPhase(pod('Never'), [status('web', { waiting: { reason: 'PodInitializing' } }), status('migrate', { terminated: { exitCode: 1 } })], false)).toBe('Failed');
  });

  it('web exited 0: still Running with Always (it will be restarted), Succeeded with OnFailure', () => {
    const statuses = [status('web', { terminated: { exitCode: 0 } }), status('migrate', { terminated: { exitCode: 0 } })];
    expect(getPhase(pod('Always'), statuses, false)).toBe('Running');
    expect(getPhase(pod('OnFailure'), statuses, false)).toBe('Succeeded');
  });
});

describe('restartDecision examples', () => {
  // Times in seconds after T0. The container crashes 1 s after each start and the kubelet restarts
  // it as soon as it may: at once (window 10 s armed), then after 10 s (20 s armed), then after 20 s (40 s armed).
  const T0 = Date.UTC(2026, 0, 2, 9, 0, 0);
  const at = (s: number) => T0 + s * 1000;
  const history: ContainerHistory = {
    pod: { name: 'web-7d9f', namespace: 'default', uid: 'uid-1' },
    container: 'web',
    restartPolicy: 'Always',
    runs: [
      { startedAtMs: at(0), finishedAtMs: at(1), exitCode: 1 },
      { startedAtMs: at(1), finishedAtMs: at(2), exitCode: 1 },
      { startedAtMs: at(12), finishedAtMs: at(13), exitCode: 1 },
      { startedAtMs: at(33), finishedAtMs: at(34), exitCode: 1 },
    ],
  };

  it('waits 40 s after the exit at 34 s, in CrashLoopBackOff', () => {
    expect(restartDecision(history, at(50))).toEqual({
      action: 'wait',
      backOffMs: 40_000,
      retryAtMs: at(74),
      message: 'back-off 40s restarting failed container=web pod=web-7d9f_default(uid-1)',
    });
  });

  it('restarts at 74 s and arms the next window, 80 s', () => {
    expect(restartDecision(history, at(74))).toEqual({ action: 'restart', backOffMs: 80_000 });
  });

  it('the very first exit is restarted at once', () => {
    expect(restartDecision({ ...history, runs: history.runs.slice(0, 1) }, at(1))).toEqual({ action: 'restart', backOffMs: 10_000 });
  });
});
