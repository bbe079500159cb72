// /livez, /readyz, /healthz as healthz.go answers them, on a harness API server.
import { describe, expect, it } from 'vitest';
import { createHarness } from './testing/harness.ts';
import { parseQuery, runHealthChecks } from './health.ts';

const READYZ = ['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', 'poststarthook/rbac/bootstrap-roles', 'poststarthook/scheduling/bootstrap-system-priority-classes', 'shutdown'];

describe('health endpoints', () => {
  it('answer "ok", or every check and "<endpoint> check passed" with ?verbose', () => {
    const h = createHarness();
    expect(h.admin({ verb: 'get', path: '/readyz' })).toMatchObject({ code: 200, body: 'ok' });
    expect(h.admin({ verb: 'get', path: '/readyz?verbose' })).toMatchObject({ code: 200, body: READYZ.map((c) => `[+]${c} ok\n`).join('') + 'readyz check passed\n' });
    expect((h.admin({ verb: 'get', path: '/livez?verbose' }).body as string).split('\n')).toEqual([
      '[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]poststarthook/rbac/bootstrap-roles ok', '[+]poststarthook/scheduling/bootstrap-system-priority-classes ok', 'livez check passed', '',
    ]);
    expect(h.admin({ verb: 'get', path: '/readyz/informer-sync' })).toMatchObject({ code: 200, body: 'ok' });
    expect(h.admin({ verb: 'get', path: '/readyz/nope' }).code).toBe(404);
  });

  it('fail with the whole list, verbose or not, withholding the reason; ?exclude skips a check', () => {
    const h = createHarness();
    h.etcd.setDown(true);
    const failed = h.admin({ verb: 'get', path: '/readyz' });
    expect(failed.code).toBe(500);
    expect(failed.body).toBe(READYZ.map((c) => (c.startsWith('etcd') ? `[-]${c} failed: reason withheld\n` : `[+]${c} ok\n`)).join('') + 'readyz check failed\n');
    expect(h.admin({ verb: 'get', path: '/readyz/etcd' })).toMatchObject({ code: 500, body: 'internal server error: context deadline exceeded\n' });
    const excluded = h.admin({ verb: 'get', path: '/livez?exclude=etcd&exclude=kms' });
    expect(excluded).toMatchObject({ code: 200, body: 'ok' });
    expect(h.admin({ verb: 'get', path: '/livez?verbose&exclude=etcd&exclude=kms' }).body).toContain('[+]etcd excluded: ok\n');
    expect(h.admin({ verb: 'get', path: '/livez?verbose&exclude=etcd&exclude=kms' }).body).toContain('warn: some health checks cannot be excluded: no matches for "kms"\nlivez check passed\n');
  });

  it('are authorized by path alone: system:public-info-viewer lets anyone ask /readyz?verbose', () => {
    const h = createHarness();
    expect(h.call({ verb: 'get', path: '/readyz?verbose' }).code).toBe(200);
  });

  it('parseQuery keeps repeated keys and bare flags', () => {
    expect([...parseQuery('verbose&exclude=etcd&exclude=a%2Fb')]).toEqual([['verbose', ['']], ['exclude', ['etcd', 'a/b']]]);
    let answer: unknown;
    runHealthChecks('healthz', [], parseQuery(''), (a) => (answer = a));
    expect(answer).toEqual({ code: 200, body: 'ok' });
  });
});
