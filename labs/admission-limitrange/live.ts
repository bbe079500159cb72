// The live API server the hidden suite drives: one kube-apiserver (runtime/apiserver's ApiServer)
// over an in-memory etcd on a small simulated clock, with the default admission chain in which a
// given plugin replaces the built-in LimitRanger.
import type { Status } from '../../runtime/api/index.ts';
import { ApiServer, createInMemoryEtcd, DEFAULT_ADMISSION_PLUGINS, type AdmissionPlugin, type ApiRequest, type ApiResponse } from '../../runtime/apiserver/index.ts';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Simulated milliseconds and timers, run in (time, order) order. */
function simClock() {
  let now = 0;
  let seq = 0;
  let timers: Timer[] = [];
  return {
    now: () => now,
    setTimer(delayMs: number, fn: () => void) {
      const t: Timer = { at: now + Math.max(0, delayMs), seq: seq++, fn, cancelled: false };
      timers.push(t);
      return { cancel: () => { t.cancelled = true; } };
    },
    /** Runs timers until `done()` or `maxMs` of simulated time. */
    runUntil(done: () => boolean, maxMs: number): void {
      const end = now + maxMs;
      while (!done()) {
        timers = timers.filter((t) => !t.cancelled);
        let next: Timer | undefined;
        for (const t of timers) if (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq)) next = t;
        if (!next || next.at > end) break;
        timers.splice(timers.indexOf(next), 1);
        now = next.at;
        next.fn();
      }
    },
  };
}

const ADMIN = { clientCert: { commonName: 'kubernetes-admin', organizations: ['system:masters'] } };

export interface LiveServer {
  /** Sends one request as the cluster admin and runs the clock until it is answered. */
  send(req: ApiRequest): ApiResponse;
  /** Lets simulated time pass (the watch caches admission reads from catch up). */
  wait(ms: number): void;
}

/** A started API server (bootstrap namespaces created) whose admission chain uses `limitRanger`. */
export function liveServer(limitRanger: AdmissionPlugin): LiveServer {
  const clock = simClock();
  const etcd = createInMemoryEtcd({ clock });
  let state = 12345;
  const rng = { nextInt: (n: number) => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state % n; } };
  const admissionPlugins = DEFAULT_ADMISSION_PLUGINS.map((p) => (p.name === 'LimitRanger' ? limitRanger : p));
  const server = new ApiServer({ name: 'kube-apiserver', etcd: etcd.client, clock, rng, admissionPlugins, compactionIntervalMs: 0 });
  server.start();
  const send = (req: ApiRequest): ApiResponse => {
    let answer: ApiResponse | undefined;
    server.request({ credentials: ADMIN, ...req }, (r) => (answer = r));
    clock.runUntil(() => answer !== undefined, 30_000);
    if (answer === undefined) throw new Error(`the API server did not answer ${req.verb} ${req.resource} within 30 simulated seconds`);
    return answer;
  };
  clock.runUntil(() => server.isReady, 20_000);
  // the bootstrap controller makes "default"; wait until a get finds it
  clock.runUntil(() => false, 2_000);
  const ns = send({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (ns.code !== 200) throw new Error(`the API server did not start: GET namespace default answered ${ns.code} ${(ns.body as Status).message ?? ''}`);
  return { send, wait: (ms) => clock.runUntil(() => false, ms) };
}

