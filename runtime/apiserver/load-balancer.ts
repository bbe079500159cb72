// The load balancer in front of the API server replicas of an HA control plane, as a process on the
// simulated network. mirrors the HAProxy setup of kubeadm's HA guide (kubernetes/kubeadm
// docs/ha-considerations.md: `mode tcp`, `balance roundrobin`, `option httpchk GET /healthz`,
// `rise 2 fall 2`), checking /readyz instead so a replica whose caches are still filling gets no
// traffic. Each client connection is pinned to one replica (`mode tcp`: HAProxy balances TCP
// connections, and client-go sends every request and watch of a client over one HTTP/2 connection),
// chosen round robin when it opens. A replica that answers its health check with an error (not
// ready: e.g. it cannot reach etcd) gets no new connections, but established ones carry on
// (HAProxy's default), so their requests keep reaching it and fail, e.g. with etcd's timeout, until
// the client closes the connection (the kubelet does after repeated heartbeat failures). A replica
// that stops answering at all is unreachable: its in-flight requests fail with "connection reset by
// peer", its watch streams are cut and its connections are gone, as a dead TCP connection shows
// (and client-go's retries and relists kick in).
// A replica whose process is gone refuses connections at once; the balancer then tries the next one
// (HAProxy `option redispatch`).
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import { isApiWireMessage, type ApiWireMessage, type WireRequest } from './server.ts';

export interface LoadBalancerOptions {
  /** Process and endpoint name, e.g. "kube-apiserver-lb". */
  name: string;
  /** Replica endpoint names, in round-robin order. */
  backends: readonly string[];
  /** Time between health checks of one replica (HAProxy `inter`; kubeadm's guide uses 10 s, we check faster). */
  checkIntervalMs?: number;
  /** A check without an answer within this long fails (HAProxy `timeout check`). */
  checkTimeoutMs?: number;
  /** Consecutive passing checks to mark a replica up (`rise`). */
  rise?: number;
  /** Consecutive failing checks to mark a replica down (`fall`). */
  fall?: number;
  /** A request with no answer within this long is cut (HAProxy `timeout server`, 20 s in kubeadm's guide). */
  serverTimeoutMs?: number;
}

interface BackendState {
  name: string;
  up: boolean;
  passes: number;
  failures: number;
}

interface Pending {
  client: string;
  clientId: number;
  backend: string;
  timer: { cancel(): void };
}

/** How long a closed stream waits for events that were sent before its close but arrive after it. */
const CLOSING_STREAM_WAIT_MS = 60_000;

interface Stream {
  client: string;
  clientId: number;
  backend: string;
  /** Stream messages (events) relayed so far. */
  relayed: number;
  /**
   * The replica's close came before some of the events sent ahead of it (the simulated network can
   * reorder; the TCP connection would not): the stream is kept until they are relayed too.
   */
  closingAt?: number;
}

export interface LoadBalancer {
  readonly name: string;
  /** Replicas currently in rotation (for the UI and tests). */
  healthyBackends(): string[];
  /** The client endpoints with a connection pinned to `backend`, sorted (for the UI and tests). */
  pinnedClients(backend: string): string[];
}

/** Spawns the balancer process on `kernel`. */
export function startLoadBalancer(kernel: Kernel, options: LoadBalancerOptions): LoadBalancer {
  if (options.backends.length === 0) throw new Error('invariant violated: a load balancer needs at least one backend');
  let state: BackendState[] = [];
  let connections = new Map<string, string>();
  kernel.spawn(options.name, (ctx) => {
    state = options.backends.map((name) => ({ name, up: true, passes: 0, failures: 0 }));
    connections = new Map();
    balance(ctx, kernel, options, state, connections);
  });
  const up = (): boolean => kernel.process(options.name)?.up === true;
  return {
    name: options.name,
    healthyBackends: () => (up() ? state.filter((b) => b.up).map((b) => b.name) : []),
    pinnedClients: (backend) => {
      if (!up()) return [];
      const clients = new Set<string>();
      for (const [key, pinned] of connections) if (pinned === backend) clients.add(key.slice(0, key.lastIndexOf('#')));
      return [...clients].sort();
    },
  };
}

function balance(ctx: ProcessContext, kernel: Kernel, options: LoadBalancerOptions, backends: BackendState[], connections: Map<string, string>): void {
  const checkIntervalMs = options.checkIntervalMs ?? 2000;
  const checkTimeoutMs = options.checkTimeoutMs ?? 1000;
  const rise = options.rise ?? 2;
  const fall = options.fall ?? 2;
  const serverTimeoutMs = options.serverTimeoutMs ?? 20_000;
  const pending = new Map<number, Pending>();
  const checks = new Map<number, { backend: BackendState; timer: { cancel(): void } }>();
  const streams = new Map<number, Stream>();
  const streamOf = new Map<string, number>();
  // `connections`: client connection ("<client>#<conn>") -> the replica it was opened to
  let nextId = 1;
  let cursor = 0;

  /** Round robin over replicas in rotation whose process accepts connections. */
  const pick = (): string | undefined => {
    for (let i = 0; i < backends.length; i++) {
      const b = backends[(cursor + i) % backends.length]!;
      if (b.up && kernel.net.isUp(b.name)) {
        cursor = (cursor + i + 1) % backends.length;
        return b.name;
      }
    }
    return undefined;
  };

  const failPending = (id: number, error: string): void => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    p.timer.cancel();
    ctx.send(p.client, { type: 'api.failure', id: p.clientId, error } satisfies ApiWireMessage);
  };

  const cutStream = (id: number, error: string): void => {
    const s = streams.get(id);
    if (!s) return;
    streams.delete(id);
    streamOf.delete(`${s.client}#${s.clientId}`);
    ctx.send(s.client, { type: 'api.watch.close', id: s.clientId, transportError: error } satisfies ApiWireMessage);
    ctx.send(s.backend, { type: 'api.watch.stop', id } satisfies ApiWireMessage);
  };

  const markDown = (b: BackendState, unreachable: boolean): void => {
    b.up = false;
    ctx.trace('lb.backend-down', b.name);
    if (!unreachable) return;
    for (const [conn, backend] of connections) if (backend === b.name) connections.delete(conn);
    for (const [id, p] of pending) if (p.backend === b.name) failPending(id, 'read: connection reset by peer');
    for (const [id, s] of streams) if (s.backend === b.name) cutStream(id, 'read: connection reset by peer');
  };

  /** ok: answered 200; otherwise `unreachable` says whether it answered at all. */
  const checkResult = (b: BackendState, ok: boolean, unreachable = false): void => {
    if (ok) {
      b.failures = 0;
      if (!b.up && ++b.passes >= rise) {
        b.up = true;
        ctx.trace('lb.backend-up', b.name);
      }
      return;
    }
    b.passes = 0;
    if (b.up && ++b.failures >= fall) markDown(b, unreachable);
  };

  const check = (b: BackendState): void => {
    const id = nextId++;
    const timer = ctx.setTimer(checkTimeoutMs, () => {
      checks.delete(id);
      checkResult(b, false, true);
    });
    checks.set(id, { backend: b, timer });
    const req: WireRequest = { verb: 'get', path: '/readyz', userAgent: 'haproxy-health-check' };
    ctx.send(b.name, { type: 'api.request', id, req } satisfies ApiWireMessage);
  };

  /**
   * The replica of the client's connection; a new connection (or one whose replica's process is
   * gone, which refused it) goes round robin, with HAProxy's redispatch.
   */
  const backendFor = (from: string, conn: number): string | undefined => {
    const key = `${from}#${conn}`;
    const pinned = connections.get(key);
    if (pinned !== undefined && kernel.net.isUp(pinned)) return pinned;
    const backend = pick();
    if (backend === undefined) connections.delete(key);
    else connections.set(key, backend);
    return backend;
  };

  const forward = (from: string, msg: Extract<ApiWireMessage, { type: 'api.request' | 'api.watch' }>): void => {
    const backend = backendFor(from, msg.conn ?? 0);
    if (backend === undefined) {
      if (msg.type === 'api.request') ctx.send(from, { type: 'api.failure', id: msg.id, error: 'EOF' } satisfies ApiWireMessage);
      else ctx.send(from, { type: 'api.watch.close', id: msg.id, transportError: 'EOF' } satisfies ApiWireMessage);
      return;
    }
    const id = nextId++;
    if (msg.type === 'api.request') {
      const timer = ctx.setTimer(serverTimeoutMs, () => failPending(id, 'EOF'));
      pending.set(id, { client: from, clientId: msg.id, backend, timer });
    } else {
      streams.set(id, { client: from, clientId: msg.id, backend, relayed: 0 });
      streamOf.set(`${from}#${msg.id}`, id);
    }
    ctx.send(backend, { ...msg, id });
  };

  const forgetStream = (id: number, s: Stream): void => {
    streams.delete(id);
    streamOf.delete(`${s.client}#${s.clientId}`);
  };

  const fromBackend = (msg: ApiWireMessage): void => {
    switch (msg.type) {
      case 'api.response': {
        const c = checks.get(msg.id);
        if (c) {
          checks.delete(msg.id);
          c.timer.cancel();
          return checkResult(c.backend, msg.code === 200);
        }
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        p.timer.cancel();
        return ctx.send(p.client, { ...msg, id: p.clientId });
      }
      case 'api.pong': {
        const s = streams.get(msg.id);
        if (s) ctx.send(s.client, { ...msg, id: s.clientId });
        return;
      }
      case 'api.watch.event': {
        const s = streams.get(msg.id);
        if (!s) return;
        s.relayed++;
        ctx.send(s.client, { ...msg, id: s.clientId });
        if (s.closingAt !== undefined && s.relayed >= s.closingAt - 1) forgetStream(msg.id, s);
        return;
      }
      case 'api.watch.close': {
        const s = streams.get(msg.id);
        if (!s) return;
        ctx.send(s.client, { ...msg, id: s.clientId });
        // the close is the stream's last message (seq N): N-1 events came before it
        if (msg.seq !== undefined && s.relayed < msg.seq - 1) {
          s.closingAt = msg.seq;
          // a late event that never comes (lost under a fault) must not keep the entry for good
          ctx.setTimer(CLOSING_STREAM_WAIT_MS, () => {
            if (streams.get(msg.id) === s) forgetStream(msg.id, s);
          });
          return;
        }
        return forgetStream(msg.id, s);
      }
      default:
        return;
    }
  };

  const fromClient = (from: string, msg: ApiWireMessage): void => {
    switch (msg.type) {
      case 'api.request':
      case 'api.watch':
        return forward(from, msg);
      case 'api.watch.stop': {
        const id = streamOf.get(`${from}#${msg.id}`);
        const s = id === undefined ? undefined : streams.get(id);
        if (id === undefined || !s) return;
        streams.delete(id);
        streamOf.delete(`${from}#${msg.id}`);
        return ctx.send(s.backend, { type: 'api.watch.stop', id } satisfies ApiWireMessage);
      }
      case 'api.ping': {
        // end to end: only the replica knows how far the stream got
        const id = streamOf.get(`${from}#${msg.id}`);
        const s = id === undefined ? undefined : streams.get(id);
        if (id === undefined || !s) return ctx.send(from, { type: 'api.pong', id: msg.id, alive: false } satisfies ApiWireMessage);
        return ctx.send(s.backend, { type: 'api.ping', id } satisfies ApiWireMessage);
      }
      case 'api.conn.close':
        // the client closed its TCP connection (FIN): HAProxy forgets it
        connections.delete(`${from}#${msg.id}`);
        return;
      default:
        return;
    }
  };

  const isBackend = new Set(backends.map((b) => b.name));
  ctx.onMessage((msg: unknown, from: string) => {
    if (!isApiWireMessage(msg)) return;
    if (isBackend.has(from)) fromBackend(msg);
    else fromClient(from, msg);
  });
  backends.forEach((b, i) => {
    // stagger the checks so the replicas are not all probed in the same millisecond
    ctx.every(checkIntervalMs, () => check(b), 1 + Math.floor((i * checkIntervalMs) / backends.length));
  });
}
