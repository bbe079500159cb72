// A one-replica API server over the in-memory etcd on a kernel, for tests and small scenarios.
import { createKernel, type Kernel } from '../../kernel/index.ts';
import { ApiServer, type ApiServerOptions } from '../api-server.ts';
import type { ApiRequest, ApiResponse, ApiWatchEvent } from '../request.ts';
import { createInMemoryEtcd, type InMemoryEtcd } from './mvcc-etcd-client.ts';

export const ADMIN = {
  clientCert: { commonName: 'kubernetes-admin', organizations: ['system:masters'] },
};

export interface Harness {
  kernel: Kernel;
  etcd: InMemoryEtcd;
  server: ApiServer;
  /** Sends a request and runs the kernel until it is answered. */
  call(req: ApiRequest): ApiResponse;
  /** Sends as cluster admin unless credentials are given. */
  admin(req: ApiRequest): ApiResponse;
  /** Opens a watch; events collect in the returned array. */
  watch(req: Omit<ApiRequest, 'verb'>): {
    events: ApiWatchEvent[];
    closed: { error?: unknown; done: boolean };
    stop(): void;
  };
}

export function createHarness(
  options: Partial<ApiServerOptions> & { seed?: number } = {},
): Harness {
  const kernel = createKernel({ seed: options.seed ?? 1 });
  const clock = {
    now: () => kernel.now(),
    setTimer: (ms: number, fn: () => void) => kernel.setTimer(ms, fn),
  };
  const etcd = createInMemoryEtcd({ clock });
  const server = new ApiServer({
    rng: kernel.rng.fork('apiserver'),
    ...options,
    etcd: etcd.client,
    clock,
  });
  server.start();
  kernel.runUntil(() => server.isReady, 100_000);
  if (!server.isReady) throw new Error('invariant violated: the test API server became ready');
  const call = (req: ApiRequest): ApiResponse => {
    let res: ApiResponse | undefined;
    server.request(req, (r) => (res = r));
    kernel.runUntil(() => res !== undefined, 100_000);
    if (!res)
      throw new Error(
        `invariant violated: request ${req.verb} ${req.resource ?? req.path} was answered`,
      );
    return res;
  };
  return {
    kernel,
    etcd,
    server,
    call,
    admin: (req) => call({ credentials: ADMIN, ...req }),
    watch(req) {
      const events: ApiWatchEvent[] = [];
      const closed: { error?: unknown; done: boolean } = { done: false };
      const h = server.watch(
        { credentials: ADMIN, ...req, verb: 'watch' },
        {
          onEvent: (e) => events.push(e),
          onClose: (err) => {
            closed.done = true;
            closed.error = err;
          },
        },
      );
      kernel.runFor(5);
      return { events, closed, stop: () => h.stop() };
    },
  };
}
