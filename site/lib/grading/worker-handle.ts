// A grading worker and its comlink proxy. The port is transferred in the first message; after
// that the page never listens to the worker's global channel.
import * as Comlink from 'comlink';
import type { ConnectMessage, GraderWorkerApi } from './protocol.ts';
import { epochNowMs, type Phase } from './timing.ts';

export interface WorkerHandle {
  api: Comlink.Remote<GraderWorkerApi>;
  /** Resolves when vitest is loaded and the realm is locked down, with the boot's phases. */
  ready: Promise<Phase[]>;
  terminate(): void;
}

export function startGraderWorker(): WorkerHandle {
  const startMs = epochNowMs();
  const worker = new Worker(new URL('../../workers/grader.worker.ts', import.meta.url), { type: 'module', name: 'lab-grader' });
  const channel = new MessageChannel();
  const connect: ConnectMessage = { type: 'connect', port: channel.port2 };
  worker.postMessage(connect, [channel.port2]);
  const api = Comlink.wrap<GraderWorkerApi>(channel.port1);
  const ready = api.ready().then((phases) => [{ name: 'page:worker-boot', startMs, endMs: epochNowMs() }, ...phases]);
  ready.catch(() => undefined); // observed by whoever uses the handle
  return {
    api,
    ready,
    terminate: () => {
      api[Comlink.releaseProxy]();
      channel.port1.close();
      worker.terminate();
    },
  };
}
