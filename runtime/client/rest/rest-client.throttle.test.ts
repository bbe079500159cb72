// The REST client's rate limiter (client-go Request.tryThrottle) against a scripted server on the
// kernel network: requests leave at the bucket's pace, impersonate() views share the bucket,
// watches are not throttled, the deadline starts after the wait, long waits are logged.
import { describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.ts';
import { RestClient, type RestClientOptions } from './rest-client.ts';
import { ThrottleLog, throttleMessage } from './rate-limiter.ts';
import type { WireMessage } from './wire.ts';

interface Setup {
  kernel: Kernel;
  client: (extra?: Partial<RestClientOptions>) => RestClient;
  /** When each message reached the server, simulated ms. */
  arrivals: { type: WireMessage['type']; atMs: number }[];
}

function setup(answerAfterMs = 0): Setup {
  const kernel = createKernel({ seed: 1, link: { jitterMs: 0 } });
  const arrivals: Setup['arrivals'] = [];
  kernel.net.register<WireMessage>('server', (msg, from) => {
    arrivals.push({ type: msg.type, atMs: kernel.now() });
    if (msg.type === 'api.request') {
      kernel.setTimer(answerAfterMs, () => kernel.send('server', from, { type: 'api.response', id: msg.id, code: 200, bodyJson: '{}' }));
    }
  });
  const host = {
    now: () => kernel.now(), setTimer: (ms: number, fn: () => void) => kernel.setTimer(ms, fn), send: (f: string, t: string, m: unknown) => kernel.send(f, t, m),
    setHandler: (n: string, h: ((msg: unknown, from: string) => void) | null) => kernel.setHandler(n, h), isUp: (n: string) => kernel.net.isUp(n),
  };
  let n = 0;
  const client = (extra: Partial<RestClientOptions> = {}): RestClient =>
    new RestClient(host, { name: `client-${n++}`, server: 'server', serverURL: 'https://server:6443', timeoutMs: 5_000, qps: 5, burst: 10, ...extra });
  return { kernel, client, arrivals };
}

const get = (c: RestClient, done: (code: number) => void = () => undefined): void =>
  c.request({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' }, (r) => done(r.code));

/** Arrival times relative to the first request's. */
const relative = (arrivals: Setup['arrivals']): number[] => arrivals.map((a) => a.atMs - arrivals[0]!.atMs);

describe('RestClient rate limiting', () => {
  it('sends a burst at once, then one request per 1/qps', () => {
    const { kernel, client, arrivals } = setup();
    const c = client();
    for (let i = 0; i < 13; i++) get(c);
    kernel.runFor(5_000);
    expect(relative(arrivals)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200, 400, 600]);
  });

  it('is unlimited without qps, or with qps <= 0 (client-go QPS -1)', () => {
    for (const extra of [{ qps: undefined }, { qps: -1 }]) {
      const { kernel, client, arrivals } = setup();
      const c = client(extra);
      for (let i = 0; i < 50; i++) get(c);
      kernel.runFor(1_000);
      expect(new Set(relative(arrivals))).toEqual(new Set([0]));
    }
  });

  it('shares one bucket between a client and its impersonate() views; another client has its own', () => {
    const { kernel, client, arrivals } = setup();
    const c = client();
    for (let i = 0; i < 10; i++) get(c);
    get(c.impersonate({ user: 'jane' }));
    get(client());
    kernel.runFor(5_000);
    expect(relative(arrivals).slice(10)).toEqual([0, 200]);
  });

  it('gives a withLimits() view a full bucket of its own, shared by its impersonate() views', () => {
    const { kernel, client, arrivals } = setup();
    const c = client();
    for (let i = 0; i < 10; i++) get(c);
    const fresh = c.withLimits({ qps: 1, burst: 2 });
    get(fresh);
    get(fresh.impersonate({ user: 'jane' }));
    get(fresh.impersonate({ user: 'jane' }));
    kernel.runFor(5_000);
    expect(relative(arrivals).slice(10)).toEqual([0, 0, 1000]);
  });

  it('does not throttle watches (request.go Watch), only requests', () => {
    const { kernel, client, arrivals } = setup();
    const c = client({ qps: 1, burst: 1 });
    get(c);
    get(c);
    c.watch({ verb: 'watch', resource: 'pods' }, { onEvent: () => undefined, onClose: () => undefined });
    kernel.runFor(3_000);
    expect(arrivals.map((a) => a.type)).toEqual(['api.request', 'api.watch', 'api.request']);
    expect(relative(arrivals)).toEqual([0, 0, 1000]);
  });

  it('starts the request timeout after the wait for a token', () => {
    const { kernel, client } = setup(4_500);
    const c = client({ qps: 1, burst: 1, timeoutMs: 5_000 });
    const codes: number[] = [];
    get(c, (code) => codes.push(code));
    get(c, (code) => codes.push(code)); // waits 1 s, then 4.5 s for its answer: 5.5 s in all, within its 5 s timeout
    kernel.runFor(10_000);
    expect(codes).toEqual([200, 200]);
  });

  it('logs a wait over 1 s in the process\'s throttle log, with the request\'s method and URL', () => {
    const { kernel, client } = setup();
    const lines: string[] = [];
    const c = client({ qps: 5, burst: 1, throttleLog: new ThrottleLog((l) => lines.push(l)) });
    for (let i = 0; i < 8; i++) c.request({ verb: 'list', resource: 'pods', namespace: 'default', query: { limit: 500, resourceVersion: '0' } }, () => undefined);
    kernel.runFor(5_000);
    // waits 200..1400 ms: the 1.2 s one is the first over 1 s; the 1.4 s one falls within 10 s of it
    expect(lines).toEqual([throttleMessage(1200, 'GET', 'https://server:6443/api/v1/namespaces/default/pods?limit=500&resourceVersion=0')]);
  });
});
