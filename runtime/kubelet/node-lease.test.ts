// The node Lease heartbeat against a scripted API (component-helpers lease/controller.go): no GET
// while the last write's copy works, five tries per update, closeAllConns from the second failed
// try on, a conflict fetching the Lease again, and backoffEnsureLease's doubling pause.
import { describe, expect, it } from 'vitest';
import type { Lease } from '../api/index.ts';
import type { RestClient, RestRequest, RestResponse } from '../client/index.ts';
import { createKernel } from '../kernel/index.ts';
import { LEASE_RENEW_INTERVAL_MS, MAX_LEASE_UPDATE_RETRIES, startLeaseRenewal } from './node-lease.ts';

type Answer = (req: RestRequest) => RestResponse;

const lease = (rv: string): Lease => ({
  apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
  metadata: { name: 'worker-1', namespace: 'kube-node-lease', resourceVersion: rv },
  spec: { holderIdentity: 'worker-1', leaseDurationSeconds: 40 },
});
const failed: RestResponse = { code: 504, body: { kind: 'Status', message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' } };

function run(answer: Answer, forMs: number) {
  const kernel = createKernel({ seed: 1 });
  const calls: { atMs: number; verb: string; rv?: string }[] = [];
  let closes = 0;
  const client = {
    request(req: RestRequest, cb: (res: RestResponse) => void) {
      calls.push({ atMs: kernel.now(), verb: req.verb, ...(req.body ? { rv: (req.body as Lease).metadata.resourceVersion } : {}) });
      const res = answer(req);
      kernel.setTimer(1, () => cb(res));
    },
  } as unknown as RestClient;
  kernel.spawn('kubelet-worker-1', (ctx) => startLeaseRenewal(ctx, { nodeName: 'worker-1', client, onRepeatedHeartbeatFailure: () => closes++ }));
  kernel.runFor(forMs);
  return { calls, closes: () => closes };
}

describe('the node Lease heartbeat (lease/controller.go)', () => {
  it('creates a missing Lease once, then updates it every renewInterval from its last write, without a GET', () => {
    let rv = 1;
    const r = run((req) => {
      if (req.verb === 'get') return { code: 404, body: {} };
      if (req.verb === 'create') return { code: 201, body: lease('1') };
      return { code: 200, body: lease(String(++rv)) };
    }, 3 * LEASE_RENEW_INTERVAL_MS);
    expect(r.calls.map((c) => c.verb)).toEqual(['get', 'create', 'update', 'update', 'update']);
    expect(r.calls.filter((c) => c.verb === 'update').map((c) => c.rv)).toEqual(['1', '2', '3']);
    expect(r.closes()).toBe(0);
  });

  it(`tries a failing update ${MAX_LEASE_UPDATE_RETRIES} times in a row, closing all connections after each failed try but the first, then GETs and tries again`, () => {
    const failing = true;
    const r = run((req) => {
      if (req.verb === 'get') return { code: 200, body: lease('7') };
      if (req.verb === 'update' && failing) return failed;
      return { code: 200, body: lease('8') };
    }, LEASE_RENEW_INTERVAL_MS + 50);
    const five = Array<string>(MAX_LEASE_UPDATE_RETRIES).fill('update');
    // the first sync has no Lease yet: GET, then five failing tries (it gives up until the next sync);
    // the next one tries its copy five times, falls back to a GET, and tries five more times
    expect(r.calls.map((c) => c.verb)).toEqual(['get', ...five, ...five, 'get', ...five]);
    expect(r.closes()).toBe(3 * (MAX_LEASE_UPDATE_RETRIES - 1)); // tries 2..5 of each round
    expect(failing).toBe(true);
  });

  it('stops closing connections as soon as a try succeeds (the second one here)', () => {
    let updates = 0;
    const r = run((req) => {
      if (req.verb === 'get') return { code: 200, body: lease('7') };
      return ++updates <= 1 ? failed : { code: 200, body: lease('8') };
    }, 5);
    expect(r.calls.map((c) => c.verb)).toEqual(['get', 'update', 'update']);
    expect(r.closes()).toBe(0); // only the first try failed
  });

  it('fetches the Lease again after a conflict, without closing connections', () => {
    let updates = 0;
    const r = run((req) => {
      if (req.verb === 'get') return { code: 200, body: lease(updates === 0 ? '7' : '9') };
      return ++updates === 1 ? { code: 409, body: {} } : { code: 200, body: lease('10') };
    }, 5);
    expect(r.calls.map((c) => [c.verb, c.rv])).toEqual([['get', undefined], ['update', '7'], ['get', undefined], ['update', '9']]);
    expect(r.closes()).toBe(0);
  });

  it('retries a failing GET after 200, 400, 800... ms, never more than 7 s apart (backoffEnsureLease)', () => {
    const r = run(() => failed, 40_000);
    const gets = r.calls.filter((c) => c.verb === 'get').map((c) => c.atMs);
    const gaps = gets.slice(1).map((t, i) => t - gets[i]! - 1); // each answer takes 1 ms here
    expect(gaps).toEqual([200, 400, 800, 1600, 3200, 6400, 7000, 7000, 7000]);
  });
});
