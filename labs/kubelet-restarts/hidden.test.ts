// Hidden grading suite for the kubelet-restarts lab. Behaviour only: the phase getPhase gives a pod
// from its container statuses, and what the kubelet does about an exited container (restart now,
// wait in CrashLoopBackOff with which message, or leave it down); then a simulated kubelet driven by
// the learner's restartDecision, and differential tests against the simulation's own kubelet
// (runtime/kubelet getPhase and restartDecision) on generated pods and container histories.
// Tables ported from pkg/kubelet/kubelet_pods_test.go (TestPodPhaseWithRestartAlways, ...Never,
// ...OnFailure, ...InitContainers, TestPodPhaseWithRestartAlwaysAndPodHasRun) and
// client-go/util/flowcontrol/backoff_test.go (TestSlowBackoff, TestBackoffReset, TestBackoffHighWaterMark).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContainerState, ContainerStatus, Pod, PodPhase, RestartPolicy } from '../../runtime/api/index.ts';
import {
  getPhase as kubeletGetPhase,
  restartDecision as kubeletRestartDecision,
  type ContainerHistory,
  type ContainerRun,
  type RestartDecision,
} from '../../runtime/kubelet/index.ts';
import { getPhase, restartDecision } from '@lab/submission';

// ---------------------------------------------------------------- builders

type StateSpec =
  | 'running'
  | 'none'
  | { exited: number }
  | { waiting: string; lastExit?: number };

const running: StateSpec = 'running';
const exited = (code: number): StateSpec => ({ exited: code });
const creating: StateSpec = { waiting: 'ContainerCreating' };
const crashLoop = (lastExit: number): StateSpec => ({ waiting: 'CrashLoopBackOff', lastExit });

function status(name: string, spec: StateSpec): ContainerStatus {
  let state: ContainerState = {};
  let lastState: ContainerState = {};
  if (spec === 'running') state = { running: { startedAt: '2026-01-02T00:00:00Z' } };
  else if (spec === 'none') state = {};
  else if ('exited' in spec) state = { terminated: { exitCode: spec.exited, reason: spec.exited === 0 ? 'Completed' : 'Error' } };
  else {
    state = { waiting: { reason: spec.waiting } };
    if (spec.lastExit !== undefined) lastState = { terminated: { exitCode: spec.lastExit, reason: spec.lastExit === 0 ? 'Completed' : 'Error' } };
  }
  return { name, state, lastState, ready: spec === 'running', restartCount: 0, image: 'busybox:1.36', imageID: '' };
}

interface PodSpecOptions {
  policy?: RestartPolicy;
  init?: string[];
  containers: string[];
  source?: string;
}

function pod(o: PodSpecOptions): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', ...(o.source ? { annotations: { 'kubernetes.io/config.source': o.source } } : {}) },
    spec: {
      ...(o.policy ? { restartPolicy: o.policy } : {}),
      ...(o.init ? { initContainers: o.init.map((name) => ({ name, image: 'busybox:1.36' })) } : {}),
      containers: o.containers.map((name) => ({ name, image: 'nginx:1.27' })),
    },
  };
}

/** One line per pod for failure messages: policy, init containers, containers and their states. */
function describeState(s: ContainerStatus | undefined): string {
  if (!s) return 'no status';
  const st = s.state ?? {};
  const last = s.lastState?.terminated ? `, last exit ${s.lastState.terminated.exitCode}` : '';
  if (st.running) return 'running';
  if (st.terminated) return `terminated exit ${st.terminated.exitCode}`;
  if (st.waiting) return `waiting ${st.waiting.reason ?? ''}${last}`;
  return `no state${last}`;
}

function describePod(p: Pod, statuses: readonly ContainerStatus[], terminal: boolean): string {
  const find = (n: string) => statuses.find((s) => s.name === n);
  const list = (names: string[]) => names.map((n) => `${n}: ${describeState(find(n))}`).join('; ');
  const init = p.spec.initContainers?.length ? ` init [${list(p.spec.initContainers.map((c) => c.name))}]` : '';
  const src = p.metadata.annotations?.['kubernetes.io/config.source'];
  return `restartPolicy ${p.spec.restartPolicy ?? '(unset)'}${init} containers [${list(p.spec.containers.map((c) => c.name))}]${terminal ? ', podIsTerminal' : ''}${src ? `, config.source ${src}` : ''}`;
}

function phaseOf(p: Pod, statuses: ContainerStatus[], terminal = false): PodPhase {
  const frozen = structuredClone({ p, statuses });
  const out = getPhase(frozen.p, frozen.statuses, terminal);
  expect(frozen, 'getPhase must not modify its arguments').toEqual({ p, statuses });
  return out;
}

function expectPhase(p: Pod, statuses: ContainerStatus[], terminal: boolean, want: PodPhase): void {
  const got = phaseOf(p, statuses, terminal);
  expect(got, `getPhase(${describePod(p, statuses, terminal)}) returned ${String(got)}, expected ${want}`).toBe(want);
}

// ---------------------------------------------------------------- getPhase tables

describe('getPhase: restartPolicy Always', () => {
  const ab = (policy?: RestartPolicy) => pod({ ...(policy ? { policy } : {}), containers: ['a', 'b'] });
  it.each<[string, StateSpec[], boolean, PodPhase]>([
    ['all running', [running, running], false, 'Running'],
    ['all stopped: restarting, still Running', [exited(0), exited(0)], false, 'Running'],
    ['all stopped with a failure: restarting, still Running', [exited(0), exited(1)], false, 'Running'],
    ['one running, one crash-looping', [running, crashLoop(1)], false, 'Running'],
    ['one running, one still being created', [running, creating], false, 'Pending'],
    ['all stopped, the pod is terminal: Succeeded', [exited(0), exited(0)], true, 'Succeeded'],
    ['all stopped with a failure, the pod is terminal: Failed', [exited(0), exited(137)], true, 'Failed'],
    ['one still running, the pod is terminal: Running', [running, exited(0)], true, 'Running'],
  ])('%s', (_name, states, terminal, want) => {
    expectPhase(ab('Always'), [status('a', states[0]!), status('b', states[1]!)], terminal, want);
  });

  it('treats a missing restartPolicy as Always (the API server default)', () => {
    expectPhase(ab(), [status('a', exited(0)), status('b', exited(0))], false, 'Running');
  });

  it('is Pending while a container has no status yet', () => {
    expectPhase(ab('Always'), [status('a', running)], false, 'Pending');
  });

  it('counts a status with no state at all as unknown: Pending', () => {
    expectPhase(ab('Always'), [status('a', running), status('b', 'none')], false, 'Pending');
  });

  it('keeps a static pod (config.source file) out of the terminal rule', () => {
    const p = pod({ policy: 'Always', containers: ['a'], source: 'file' });
    expectPhase(p, [status('a', exited(0))], true, 'Running');
    expectPhase(pod({ policy: 'Always', containers: ['a'], source: 'api' }), [status('a', exited(0))], true, 'Succeeded');
  });
});

describe('getPhase: restartPolicy Never', () => {
  const ab = pod({ policy: 'Never', containers: ['a', 'b'] });
  it.each<[string, StateSpec[], PodPhase]>([
    ['all running', [running, running], 'Running'],
    ['all succeeded', [exited(0), exited(0)], 'Succeeded'],
    ['all failed', [exited(1), exited(2)], 'Failed'],
    ['one succeeded, one failed', [exited(0), exited(1)], 'Failed'],
    ['one running, one succeeded: not done yet', [running, exited(0)], 'Running'],
    ['one running, one failed: not done yet', [running, exited(1)], 'Running'],
    ['one waiting to start', [running, creating], 'Pending'],
    ['waiting after a run that exited 0 is stopped, but not a success', [exited(0), crashLoop(0)], 'Failed'],
  ])('%s', (_name, states, want) => {
    expectPhase(ab, [status('a', states[0]!), status('b', states[1]!)], false, want);
  });
});

describe('getPhase: restartPolicy OnFailure', () => {
  const ab = pod({ policy: 'OnFailure', containers: ['a', 'b'] });
  it.each<[string, StateSpec[], PodPhase]>([
    ['all running', [running, running], 'Running'],
    ['all succeeded', [exited(0), exited(0)], 'Succeeded'],
    ['all failed: restarting', [exited(1), exited(1)], 'Running'],
    ['one running, one succeeded', [running, exited(0)], 'Running'],
    ['one waiting to start', [running, creating], 'Pending'],
    ['one succeeded, one crash-looping after a failure', [exited(0), crashLoop(1)], 'Running'],
    ['waiting after a run that exited 0 is not a success', [exited(0), crashLoop(0)], 'Running'],
  ])('%s', (_name, states, want) => {
    expectPhase(ab, [status('a', states[0]!), status('b', states[1]!)], false, want);
  });
});

describe('getPhase: init containers', () => {
  it.each<[RestartPolicy, string, StateSpec[], StateSpec | null, PodPhase]>([
    ['Always', 'an init container running', [running], creating, 'Pending'],
    ['Always', 'an init container with no status yet', [], null, 'Pending'],
    ['Always', 'an init container crash-looping', [crashLoop(1)], creating, 'Pending'],
    ['Always', 'init done, the app container running', [exited(0)], running, 'Running'],
    ['Always', 'init waiting after exit 0 counts as done', [crashLoop(0)], running, 'Running'],
    ['Never', 'an init container failed', [exited(1)], creating, 'Failed'],
    ['Never', 'an init container failed earlier and waits', [crashLoop(2)], creating, 'Failed'],
    ['OnFailure', 'an init container failed: retried, Pending', [exited(1)], creating, 'Pending'],
    ['Always', 'an init container failed: retried, Pending', [exited(1)], creating, 'Pending'],
    ['Never', 'the first init done, the second running', [exited(0), running], creating, 'Pending'],
    ['Never', 'both init done, the app container succeeded', [exited(0), exited(0)], exited(0), 'Succeeded'],
  ])('%s: %s', (policy, _name, initStates, app, want) => {
    const init = initStates.length === 2 ? ['init-a', 'init-b'] : ['init-a'];
    const statuses = [...(app ? [status('app', app)] : []), ...initStates.map((s, i) => status(init[i]!, s))];
    expectPhase(pod({ policy, init, containers: ['app'] }), statuses, false, want);
  });

  it('fails a pod with restartPolicy Never as soon as an init container fails, whatever the app containers do', () => {
    const p = pod({ policy: 'Never', init: ['init-a'], containers: ['app'] });
    expectPhase(p, [status('init-a', exited(3)), status('app', running)], false, 'Failed');
  });

  it('finds statuses by name, in any order, init and app statuses in one list', () => {
    const p = pod({ policy: 'Always', init: ['init-a', 'init-b'], containers: ['a', 'b'] });
    const statuses = [status('b', running), status('init-b', exited(0)), status('a', running), status('init-a', exited(0))];
    expectPhase(p, statuses, false, 'Running');
  });
});

// ---------------------------------------------------------------- restartDecision tables

const POD = { name: 'web-7d9f8c6b5-x2k4q', namespace: 'shop', uid: '3f2a9c1e-0b7d-4e55-9a61-2c8d4f0e7b13' };
const T0 = Date.UTC(2026, 0, 2, 9, 0, 0);
const S = 1000;
const msg = (wait: string) => `back-off ${wait} restarting failed container=web pod=${POD.name}_${POD.namespace}(${POD.uid})`;

function history(runs: ContainerRun[], restartPolicy: RestartPolicy = 'Always', container = 'web'): ContainerHistory {
  return { pod: { ...POD }, container, restartPolicy, runs };
}

function describeHistory(h: ContainerHistory): string {
  const runs = h.runs.map((r) => {
    const start = (r.startedAtMs - T0) / S;
    return r.finishedAtMs === undefined ? `started ${start}s, running` : `started ${start}s, exited ${(r.finishedAtMs - T0) / S}s with ${r.exitCode ?? '(no code)'}`;
  });
  return `restartPolicy ${h.restartPolicy}, runs (seconds after T0): [${runs.join('; ')}]`;
}

function decide(h: ContainerHistory, nowMs: number): RestartDecision {
  const frozen = structuredClone(h);
  const out = structuredClone(restartDecision(frozen, nowMs));
  expect(frozen, 'restartDecision must not modify the history').toEqual(h);
  return out;
}

function expectDecision(h: ContainerHistory, nowMs: number, want: RestartDecision): void {
  const got = decide(h, nowMs);
  expect(got, `restartDecision at ${(nowMs - T0) / S}s after T0 for ${describeHistory(h)}:\nreturned ${JSON.stringify(got)}\nexpected ${JSON.stringify(want)}`).toEqual(want);
}

/** A container that crashes `runMs` after every start and is restarted the moment it may be. */
function crashLoopHistory(crashes: number, runMs = 1 * S): ContainerRun[] {
  const runs: ContainerRun[] = [{ startedAtMs: T0, finishedAtMs: T0 + runMs, exitCode: 1 }];
  while (runs.length < crashes) {
    const h = history(runs);
    const exit = runs[runs.length - 1]!.finishedAtMs!;
    const d = kubeletRestartDecision(h, exit);
    const start = d.action === 'wait' ? d.retryAtMs : exit;
    runs.push({ startedAtMs: start, finishedAtMs: start + runMs, exitCode: 1 });
  }
  return runs;
}

describe('restartDecision: the restart policy', () => {
  it.each<[RestartPolicy, number, RestartDecision]>([
    ['Always', 0, { action: 'restart', backOffMs: 10 * S }],
    ['Always', 1, { action: 'restart', backOffMs: 10 * S }],
    ['OnFailure', 0, { action: 'done' }],
    ['OnFailure', 137, { action: 'restart', backOffMs: 10 * S }],
    ['Never', 0, { action: 'done' }],
    ['Never', 1, { action: 'done' }],
  ])('%s after exit code %i', (policy, code, want) => {
    expectDecision(history([{ startedAtMs: T0, finishedAtMs: T0 + 5 * S, exitCode: code }], policy), T0 + 5 * S, want);
  });

  it('leaves a running container alone', () => {
    expectDecision(history([{ startedAtMs: T0 }]), T0 + 60 * S, { action: 'running' });
    const runs: ContainerRun[] = [{ startedAtMs: T0, finishedAtMs: T0 + S, exitCode: 1 }, { startedAtMs: T0 + S }];
    expectDecision(history(runs, 'Never'), T0 + 60 * S, { action: 'running' });
  });
});

describe('restartDecision: CrashLoopBackOff', () => {
  it('restarts the first exit at once and arms 10 s', () => {
    expectDecision(history(crashLoopHistory(1)), T0 + S, { action: 'restart', backOffMs: 10 * S });
  });

  const windows: [number, number, string][] = [
    [2, 10, '10s'],
    [3, 20, '20s'],
    [4, 40, '40s'],
    [5, 80, '1m20s'],
    [6, 160, '2m40s'],
    [7, 300, '5m0s'],
    [8, 300, '5m0s'],
    [12, 300, '5m0s'],
  ];
  it.each(windows)('after %i crashes in a row: waits %i s, message "back-off %s ..."', (crashes, seconds, text) => {
    const runs = crashLoopHistory(crashes);
    const exit = runs[runs.length - 1]!.finishedAtMs!;
    expectDecision(history(runs), exit + 2 * S, { action: 'wait', backOffMs: seconds * S, retryAtMs: exit + seconds * S, message: msg(text) });
  });

  it('doubles the window at each restart, capped at 5 minutes', () => {
    const runs = crashLoopHistory(9);
    const armed = runs.slice(1).map((_, i) => {
      const h = history(runs.slice(0, i + 1));
      const d = decide(h, runs[i + 1]!.startedAtMs);
      return d.action === 'restart' ? d.backOffMs / S : `${d.action} instead of restart`;
    });
    expect(armed, `the window each restart arms, for ${describeHistory(history(runs))}`).toEqual([10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it('waits until exit + window, not a millisecond less (in back-off while now - exit < window)', () => {
    const runs = crashLoopHistory(4);
    const exit = runs[3]!.finishedAtMs!;
    expectDecision(history(runs), exit + 40 * S - 1, { action: 'wait', backOffMs: 40 * S, retryAtMs: exit + 40 * S, message: msg('40s') });
    expectDecision(history(runs), exit + 40 * S, { action: 'restart', backOffMs: 80 * S });
    expectDecision(history(runs), exit + 40 * S + 123_456, { action: 'restart', backOffMs: 80 * S });
  });

  it('counts the window from the exit, not from the last start', () => {
    // started at 33 s, ran 25 s, exited at 58 s: the 40 s window ends at 98 s
    const runs = crashLoopHistory(3);
    runs.push({ startedAtMs: T0 + 33 * S, finishedAtMs: T0 + 58 * S, exitCode: 1 });
    expectDecision(history(runs), T0 + 80 * S, { action: 'wait', backOffMs: 40 * S, retryAtMs: T0 + 98 * S, message: msg('40s') });
  });

  it('names the container, the pod name, namespace and uid in the message', () => {
    const runs = crashLoopHistory(2);
    const h: ContainerHistory = { pod: { name: 'db-0', namespace: 'kube-system', uid: 'u-42' }, container: 'postgres', restartPolicy: 'OnFailure', runs };
    expectDecision(h, runs[1]!.finishedAtMs!, {
      action: 'wait', backOffMs: 10 * S, retryAtMs: runs[1]!.finishedAtMs! + 10 * S,
      message: 'back-off 10s restarting failed container=postgres pod=db-0_kube-system(u-42)',
    });
  });

  it('dates the entry from the restart, not from the exit before it (Next stamps its own time)', () => {
    // the kubelet restarted the second run 100 s late; it ran 550 s (exit at 651 s): the entry was
    // updated at 101 s (the restart), not 1 s (the exit), so it has not expired and the 10 s window applies
    const runs: ContainerRun[] = [
      { startedAtMs: T0, finishedAtMs: T0 + S, exitCode: 1 },
      { startedAtMs: T0 + 101 * S, finishedAtMs: T0 + 651 * S, exitCode: 1 },
    ];
    expectDecision(history(runs), T0 + 660 * S, { action: 'wait', backOffMs: 10 * S, retryAtMs: T0 + 661 * S, message: msg('10s') });
  });
});

describe('restartDecision: starting over after a long run', () => {
  /** Five quick crashes (window 160 s after the fifth restart), then a run of `runMs`. */
  function longRun(runMs: number): ContainerRun[] {
    const runs = crashLoopHistory(6);
    const last = runs[5]!;
    runs[5] = { startedAtMs: last.startedAtMs, finishedAtMs: last.startedAtMs + runMs, exitCode: 1 };
    return runs;
  }

  it('starts over at 10 s, with no wait, when the run lasted more than 10 minutes', () => {
    const runs = longRun(600 * S + 1);
    expectDecision(history(runs), runs[5]!.finishedAtMs!, { action: 'restart', backOffMs: 10 * S });
  });

  it('keeps the window when the run lasted 5 minutes (and the window ends before 10 minutes since the restart)', () => {
    const runs = longRun(300 * S);
    const exit = runs[5]!.finishedAtMs!;
    expectDecision(history(runs), exit + 100 * S, { action: 'wait', backOffMs: 160 * S, retryAtMs: exit + 160 * S, message: msg('2m40s') });
    expectDecision(history(runs), exit + 160 * S, { action: 'restart', backOffMs: 300 * S });
  });

  it('forgets the entry (GC) once its last update is more than 10 minutes old, even inside the window', () => {
    // restarted at L, ran 500 s: the 160 s window would end at L + 660 s, but the entry is
    // forgotten after L + 600 s: at L + 600 s still waiting, one millisecond later restart at 10 s
    const runs = longRun(500 * S);
    const start = runs[5]!.startedAtMs;
    const exit = runs[5]!.finishedAtMs!;
    expectDecision(history(runs), start + 600 * S, { action: 'wait', backOffMs: 160 * S, retryAtMs: exit + 160 * S, message: msg('2m40s') });
    expectDecision(history(runs), start + 600 * S + 1, { action: 'restart', backOffMs: 10 * S });
  });

  it('counts a run of exactly 10 minutes as not long enough: the GC takes one more millisecond', () => {
    const runs = longRun(600 * S);
    const exit = runs[5]!.finishedAtMs!;
    expectDecision(history(runs), exit, { action: 'wait', backOffMs: 160 * S, retryAtMs: exit + 160 * S, message: msg('2m40s') });
    expectDecision(history(runs), exit + 1, { action: 'restart', backOffMs: 10 * S });
  });

  it('replays the whole history: a reset in the middle is followed by doubling from 10 s again', () => {
    const runs = longRun(700 * S);
    let exit = runs[5]!.finishedAtMs!;
    for (const seconds of [10, 20, 40]) {
      const start = exit + (seconds === 10 ? 0 : seconds / 2) * S;
      runs.push({ startedAtMs: start, finishedAtMs: start + 3 * S, exitCode: 2 });
      exit = start + 3 * S;
    }
    expectDecision(history(runs), exit + S, { action: 'wait', backOffMs: 40 * S, retryAtMs: exit + 40 * S, message: msg('40s') });
  });
});

// ---------------------------------------------------------------- a kubelet driven by restartDecision

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Timeline {
  starts: number[];
  messages: string[];
}

/**
 * Two hours of a crash-looping container on a kubelet that syncs the pod every `syncMs`: at each
 * sync an exited container is restarted if `decide` says so. Run lengths come from the seed.
 */
function driveKubelet(decideFn: (h: ContainerHistory, now: number) => RestartDecision, seed: number, syncMs: number): Timeline {
  const random = mulberry32(seed);
  const runLength = () => {
    const r = random();
    if (r < 0.6) return Math.floor(random() * 20) * S;
    if (r < 0.85) return Math.floor(random() * 400) * S;
    return (450 + Math.floor(random() * 300)) * S;
  };
  const runs: ContainerRun[] = [{ startedAtMs: T0, finishedAtMs: T0 + runLength(), exitCode: 1 }];
  const messages: string[] = [];
  for (let now = T0; now < T0 + 7200 * S; now += syncMs) {
    const last = runs[runs.length - 1]!;
    if (last.finishedAtMs === undefined || last.finishedAtMs > now) continue;
    const h: ContainerHistory = { pod: { ...POD }, container: 'web', restartPolicy: 'Always', runs: runs.map((r) => ({ ...r })) };
    const d = decideFn(h, now);
    if (d.action === 'restart') runs.push({ startedAtMs: now, finishedAtMs: now + runLength(), exitCode: 1 });
    else if (d.action === 'wait' && messages[messages.length - 1] !== d.message) messages.push(d.message);
  }
  return { starts: runs.map((r) => (r.startedAtMs - T0) / S), messages };
}

describe('a kubelet that syncs the pod and asks restartDecision', () => {
  it.each([
    [1, 1000],
    [2, 1000],
    [3, 2000],
    [4, 10_000],
    [5, 700],
  ])('restarts a crash-looping container at the same moments as the kubelet (seed %i, a sync every %i ms)', (seed, syncMs) => {
    const want = driveKubelet(kubeletRestartDecision, seed, syncMs);
    const got = driveKubelet((h, now) => structuredClone(restartDecision(h, now)), seed, syncMs);
    const firstStart = got.starts.findIndex((s, i) => s !== want.starts[i]);
    expect(
      firstStart,
      `seed ${seed}: start #${firstStart} (seconds after T0) is ${got.starts[firstStart]}, the kubelet's is ${want.starts[firstStart]}; ` +
        `starts so far ${JSON.stringify(want.starts.slice(0, firstStart + 1))}`,
    ).toBe(-1);
    expect(got.starts.length, `seed ${seed}: number of starts in two hours`).toBe(want.starts.length);
    expect(got.messages, `seed ${seed}: the CrashLoopBackOff messages, in order`).toEqual(want.messages);
  });
});

// ---------------------------------------------------------------- differential tests

const SEED = 20_260_108;

/** JSON with object keys sorted, so two equal decisions compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  ) ?? 'undefined';
}

/**
 * Runs a differential property with a fixed seed; on failure, reports the seed, the path to replay
 * it and the smallest failing input fast-check found, with what the kubelet and the learner said.
 */
function differential<T>(what: string, arb: fc.Arbitrary<T>, numRuns: number, compare: (input: T) => string | undefined, show: (input: T) => string): void {
  const details = fc.check(
    fc.property(arb, (input) => {
      const problem = compare(input);
      if (problem !== undefined) throw new Error(problem);
    }),
    { seed: SEED, numRuns },
  );
  if (details.failed && details.counterexample) {
    const [input] = details.counterexample;
    let problem: string;
    try {
      problem = compare(input) ?? String(details.errorInstance);
    } catch (e) {
      problem = `your code threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    expect.fail(
      `${what}: differs from the kubelet (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated cases).\n` +
        `Smallest failing input: ${show(input)}\n${JSON.stringify(input)}\n${problem}`,
    );
  }
  expect(details.numRuns, `${what}: generated cases run`).toBe(numRuns);
}

const stateArb: fc.Arbitrary<StateSpec | null> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<StateSpec>('running') },
  { weight: 4, arbitrary: fc.constantFrom(0, 0, 1, 2, 137).map((code): StateSpec => ({ exited: code })) },
  { weight: 2, arbitrary: fc.constantFrom('ContainerCreating', 'PodInitializing', 'ErrImagePull').map((reason): StateSpec => ({ waiting: reason })) },
  { weight: 3, arbitrary: fc.constantFrom(0, 1, 137).map((code): StateSpec => ({ waiting: 'CrashLoopBackOff', lastExit: code })) },
  { weight: 1, arbitrary: fc.constant<StateSpec>('none') },
  { weight: 1, arbitrary: fc.constant(null) },
);

interface PhaseCase {
  pod: Pod;
  statuses: ContainerStatus[];
  terminal: boolean;
}

const phaseCaseArb: fc.Arbitrary<PhaseCase> = fc
  .record({
    policy: fc.constantFrom<RestartPolicy | undefined>('Always', 'OnFailure', 'Never', undefined),
    init: fc.array(stateArb, { maxLength: 3 }),
    containers: fc.array(stateArb, { minLength: 1, maxLength: 4 }),
    stray: fc.boolean(),
    terminal: fc.boolean(),
    source: fc.constantFrom(undefined, undefined, undefined, 'api', 'file', 'http'),
    order: fc.array(fc.nat(), { maxLength: 8 }),
  })
  .map(({ policy, init, containers, stray, terminal, source, order }) => {
    const initNames = init.map((_, i) => `init-${i}`);
    const names = containers.map((_, i) => `c-${i}`);
    const p = pod({ ...(policy ? { policy } : {}), ...(init.length ? { init: initNames } : {}), containers: names, ...(source ? { source } : {}) });
    const statuses: ContainerStatus[] = [];
    containers.forEach((s, i) => s && statuses.push(status(names[i]!, s)));
    init.forEach((s, i) => s && statuses.push(status(initNames[i]!, s)));
    if (stray) statuses.push(status('sidecar-from-an-old-spec', running));
    // any order: shuffle with the generated numbers
    for (let i = statuses.length - 1; i > 0; i--) {
      const j = (order[i % Math.max(order.length, 1)] ?? 0) % (i + 1);
      [statuses[i], statuses[j]] = [statuses[j]!, statuses[i]!];
    }
    return { pod: p, statuses, terminal };
  });

interface HistoryCase {
  history: ContainerHistory;
  nowMs: number;
}

/** A plausible history: each restart happens when the kubelet allows it (plus some delay), then `now`. */
const historyCaseArb: fc.Arbitrary<HistoryCase> = fc
  .record({
    origin: fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
    policy: fc.constantFrom<RestartPolicy>('Always', 'Always', 'Always', 'OnFailure', 'Never'),
    runs: fc.array(
      fc.record({
        runMs: fc.oneof(
          { weight: 5, arbitrary: fc.integer({ min: 0, max: 30_000 }) },
          { weight: 2, arbitrary: fc.integer({ min: 30_000, max: 450_000 }) },
          { weight: 2, arbitrary: fc.integer({ min: 450_000, max: 750_000 }) },
          { weight: 1, arbitrary: fc.constantFrom(300_000, 440_000, 599_999, 600_000, 600_001) },
        ),
        exitCode: fc.constantFrom(0, 1, 1, 2, 137),
        delayMs: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 0, max: 15_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 900_000 }) }),
      }),
      { minLength: 1, maxLength: 16 },
    ),
    stillRunning: fc.boolean(),
    now: fc.oneof(
      fc.constantFrom(0, 1, 9_999, 10_000, 19_999, 20_000, 40_000, 79_999, 80_000, 160_000, 299_999, 300_000, 300_001),
      fc.integer({ min: 0, max: 900_000 }),
      fc.constantFrom('gc-edge', 'gc-after' as const),
    ),
  })
  .map(({ origin, policy, runs: specs, stillRunning, now }) => {
    const h: ContainerHistory = { pod: { ...POD }, container: 'web', restartPolicy: policy, runs: [] };
    const runs: ContainerRun[] = [];
    let start = origin;
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]!;
      const exitCode = policy === 'OnFailure' && i < specs.length - 1 && spec.exitCode === 0 ? 1 : spec.exitCode;
      runs.push({ startedAtMs: start, finishedAtMs: start + spec.runMs, exitCode });
      if (i === specs.length - 1) break;
      const exit = start + spec.runMs;
      const at = exit + spec.delayMs;
      const d = kubeletRestartDecision({ ...h, runs }, at);
      if (d.action === 'restart') start = at;
      else if (d.action === 'wait') start = d.retryAtMs + (spec.delayMs % 3000);
      else break; // Never, or OnFailure after exit 0: no more runs
    }
    if (stillRunning && specs.length % 3 === 0) {
      // the last run has not exited yet
      const { startedAtMs } = runs[runs.length - 1]!;
      runs[runs.length - 1] = { startedAtMs };
    }
    const last = runs[runs.length - 1]!;
    const exit = last.finishedAtMs ?? last.startedAtMs;
    let nowMs = exit + (typeof now === 'number' ? now : 0);
    if (now === 'gc-edge') nowMs = Math.max(exit, last.startedAtMs + 600_000);
    if (now === 'gc-after') nowMs = Math.max(exit, last.startedAtMs + 600_001);
    return { history: { ...h, runs }, nowMs };
  });

describe('differential tests against the kubelet (runtime/kubelet)', () => {
  it('getPhase agrees on 2000 generated pods (init containers, every state, statuses in any order, terminal or not)', () => {
    differential(
      'getPhase',
      phaseCaseArb,
      2000,
      ({ pod: p, statuses, terminal }) => {
        const want = kubeletGetPhase(p, statuses, terminal);
        const got = getPhase(structuredClone(p), structuredClone(statuses), terminal);
        return got === want ? undefined : `the kubelet says ${want}, your getPhase returned ${String(got)}`;
      },
      ({ pod: p, statuses, terminal }) => describePod(p, statuses, terminal),
    );
  });

  it('restartDecision agrees on 1500 generated container histories (every policy, short and long runs, GC edges)', () => {
    differential(
      'restartDecision',
      historyCaseArb,
      1500,
      ({ history: h, nowMs }) => {
        const want = kubeletRestartDecision(h, nowMs);
        const got = structuredClone(restartDecision(structuredClone(h), nowMs));
        return canonical(got) === canonical(want) ? undefined : `at now = ${nowMs} the kubelet says ${canonical(want)}, your restartDecision returned ${canonical(got)}`;
      },
      ({ history: h, nowMs }) => `now ${nowMs}, ${h.restartPolicy}, ${h.runs.length} run(s): ${h.runs.map((r) => `[${r.startedAtMs}, ${r.finishedAtMs ?? 'running'}) exit ${r.exitCode ?? '-'}`).join(' ')}`,
    );
  });
});
