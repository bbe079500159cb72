// An EtcdClient over one pure MvccStore, answering through simulated-time timers: a stand-in for
// a real etcd member cluster in unit tests and small scenarios. It has no Raft, no failures and
// no leader; every call succeeds after `latencyMs` unless the store itself refuses it.
import {
  MvccStore, WatchHub, fail, ok, type CallOptions, type Callback, type ClientClock, type EtcdClient, type Result,
  type ResponseHeader, type WatchListener, type WithHeader,
} from '../../etcd/index.ts';

export interface InMemoryEtcdOptions {
  clock: ClientClock;
  /** One-way answer delay in simulated ms (default 1). */
  latencyMs?: number;
  store?: MvccStore;
}

export interface InMemoryEtcd {
  client: EtcdClient;
  store: MvccStore;
  /** Stop answering (every later call times out after 5 s), like a dead etcd. */
  setDown(down: boolean): void;
}

export function createInMemoryEtcd(options: InMemoryEtcdOptions): InMemoryEtcd {
  const store = options.store ?? new MvccStore();
  const hub = new WatchHub(store);
  const latencyMs = options.latencyMs ?? 1;
  const clock = options.clock;
  let down = false;
  const header = (): ResponseHeader => ({ clusterId: 'cdf818194e3a8c32', memberId: '8e9e05c52164694d', revision: store.revision, raftTerm: 2 });
  const answer = <T extends object>(run: () => Result<T>, cb: Callback<T>, opts?: CallOptions): void => {
    if (down) {
      clock.setTimer(opts?.timeoutMs ?? 5000, () => cb(fail({ code: 'DeadlineExceeded', message: 'context deadline exceeded' })));
      return;
    }
    clock.setTimer(latencyMs, () => {
      const r = run();
      cb(r.ok ? ok({ ...r.value, header: header() } as WithHeader<T>) : r);
    });
  };
  const unsupported = <T extends object>(cb: Callback<T>): void => {
    clock.setTimer(latencyMs, () => cb(fail({ code: 'Unavailable', message: 'not supported by the in-memory etcd' })));
  };
  const client: EtcdClient = {
    endpoints: ['http://127.0.0.1:2379'],
    clock,
    range: (req, cb, opts) => answer(() => store.range(req), cb, opts),
    put: (req, cb, opts) => answer(() => store.put(req), cb, opts),
    deleteRange: (req, cb, opts) => answer(() => store.deleteRange(req), cb, opts),
    txn: (req, cb, opts) => answer(() => store.txn(req), cb, opts),
    compact: (rev, cb, opts) => answer(() => store.compact(rev), cb, opts),
    leaseGrant: (ttl, cb, opts) => answer(() => store.leaseGrant(opts?.id ?? store.leaseIds().length + 1, ttl), cb, opts),
    leaseRevoke: (id, cb, opts) => answer(() => store.leaseRevoke(id), cb, opts),
    leaseKeepAliveOnce: (_id, cb) => unsupported(cb),
    leaseTimeToLive: (_id, cb) => unsupported(cb),
    memberList: (cb) => unsupported(cb),
    status: (_e, cb) => unsupported(cb),
    hashKV: (_e, _r, cb) => unsupported(cb),
    snapshot: (cb) => unsupported(cb),
    watch(req, listener: WatchListener) {
      let open = true;
      const id = hub.watch(req, (resp) => {
        if (!open) return;
        const rev = resp.revision;
        clock.setTimer(latencyMs, () => {
          if (open) listener({ ...resp, header: { ...header(), revision: rev } });
        });
      });
      return {
        cancel() {
          open = false;
          hub.cancel(id);
        },
      };
    },
  };
  return { client, store, setDown: (d) => (down = d) };
}
