// The kubelet's node Lease heartbeat.
// mirrors staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go: every renewInterval
// (10 s = 1/4 of the 40 s leaseDurationSeconds) sync() updates kube-node-lease/<node> from the copy
// its last write returned (no GET); when that fails it falls back to backoffEnsureLease (GET, or
// create when missing, retried with a doubling pause up to 7 s) and updates again. Each update is
// tried up to maxUpdateRetries (5) times in a row: a conflict fetches the Lease again first, and from
// the second failed try on, onRepeatedHeartbeatFailure runs: the kubelet then closes all its
// connections (pkg/kubelet/kubelet.go), so that one stuck on an API server that lost etcd, or a
// half-dead connection, is dialled anew and a load balancer can send it to a healthy replica.
import { rfc3339Micro, type Lease } from '../api/index.ts';
import type { RestClient } from '../client/index.ts';
import type { ProcessContext } from '../kernel/index.ts';

export const LEASE_DURATION_SECONDS = 40;
export const LEASE_RENEW_INTERVAL_MS = 10_000;
/** controller.go maxUpdateRetries. */
export const MAX_LEASE_UPDATE_RETRIES = 5;
/** backoffEnsureLease: the pause starts at 100 ms, doubles before each wait, and stops growing at 7 s. */
const ENSURE_FIRST_SLEEP_MS = 100;
const ENSURE_MAX_BACKOFF_MS = 7_000;

export interface NodeLeaseOptions {
  nodeName: string;
  client: RestClient;
  /** kubelet.go: closeAllConns, after the second failed try of a heartbeat. */
  onRepeatedHeartbeatFailure?: () => void;
}

/** Starts the heartbeat: a first sync now, then one every renewInterval (a sync in progress is not doubled). */
export function startLeaseRenewal(ctx: ProcessContext, o: NodeLeaseOptions): void {
  const base = { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' };
  const leaseBody = (prev?: Lease): Lease => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { ...(prev?.metadata ?? {}), name: o.nodeName, namespace: 'kube-node-lease' },
    spec: {
      holderIdentity: o.nodeName,
      leaseDurationSeconds: LEASE_DURATION_SECONDS,
      renewTime: rfc3339Micro(ctx.now()),
    },
  });
  let latest: Lease | undefined;
  let syncing = false;

  /** ensureLease, retried until it works: the Lease, and whether it was just created. */
  const backoffEnsureLease = (done: (lease: Lease, created: boolean) => void, sleepMs = ENSURE_FIRST_SLEEP_MS): void => {
    const retry = (): void => {
      const next = Math.min(2 * sleepMs, ENSURE_MAX_BACKOFF_MS);
      ctx.setTimer(next, () => backoffEnsureLease(done, next));
    };
    o.client.request({ verb: 'get', ...base, name: o.nodeName }, (res) => {
      if (!ctx.isLive()) return;
      if (res.code === 200) return done(res.body as Lease, false);
      if (res.code !== 404) return retry();
      o.client.request({ verb: 'create', ...base, body: leaseBody() }, (c) => {
        if (!ctx.isLive()) return;
        if (c.code === 201) return done(c.body as Lease, true);
        retry();
      });
    });
  };

  const retryUpdateLease = (from: Lease, done: (ok: boolean) => void, attempt = 0): void => {
    if (attempt >= MAX_LEASE_UPDATE_RETRIES) return done(false);
    o.client.request({ verb: 'update', ...base, name: o.nodeName, body: leaseBody(from) }, (u) => {
      if (!ctx.isLive()) return;
      if (u.code === 200) {
        latest = u.body as Lease;
        ctx.trace('kubelet.lease-renewed', o.nodeName);
        return done(true);
      }
      // an optimistic-lock conflict needs the newer Lease before trying again
      if (u.code === 409) return backoffEnsureLease((lease) => retryUpdateLease(lease, done, attempt + 1));
      if (attempt > 0) o.onRepeatedHeartbeatFailure?.();
      retryUpdateLease(from, done, attempt + 1);
    });
  };

  const sync = (): void => {
    if (syncing) return;
    syncing = true;
    const finished = (): void => {
      syncing = false;
    };
    const ensureThenUpdate = (): void =>
      backoffEnsureLease((lease, created) => {
        latest = lease;
        // a Lease just created needs no update
        if (created) return finished();
        retryUpdateLease(lease, finished);
      });
    if (latest === undefined) return ensureThenUpdate();
    retryUpdateLease(latest, (ok) => (ok ? finished() : ensureThenUpdate()));
  };
  sync();
  ctx.every(LEASE_RENEW_INTERVAL_MS, sync);
}
