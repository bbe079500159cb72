// The REST client against a scripted server endpoint on the kernel network: retries only where
// client-go retries, deadlines on the simulated clock, and watch streams that arrive in order or
// are declared broken.
import { describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.ts';
import { ThrottleLog } from './rate-limiter.ts';
import { RestClient, type RestResponse, type RestWatchEvent } from './rest-client.ts';
import type { WireMessage } from './wire.ts';

type Script = (msg: WireMessage, reply: (m: WireMessage, delayMs?: number) => void) => void;

function setup(script: Script): { kernel: Kernel; client: RestClient; received: WireMessage[] } {
  const kernel = createKernel({ seed: 1, link: { jitterMs: 0 } });
  const received: WireMessage[] = [];
  kernel.net.register<WireMessage>('server', (msg, from) => {
    received.push(msg);
    script(msg, (m, delayMs = 0) => kernel.setTimer(delayMs, () => kernel.send('server', from, m)));
  });
  const client = new RestClient(
    {
      now: () => kernel.now(), setTimer: (ms, fn) => kernel.setTimer(ms, fn), send: (f, t, m) => kernel.send(f, t, m),
      setHandler: (n, h) => kernel.setHandler(n, h), isUp: (n) => kernel.net.isUp(n),
    },
    { name: 'client', server: 'server', serverURL: 'https://server:6443', timeoutMs: 5_000, credentials: { token: 't' } },
  );
  return { kernel, client, received };
}

const ok = (id: number): WireMessage => ({ type: 'api.response', id, code: 200, bodyJson: '{"kind":"Pod","metadata":{"name":"p"}}' });

function call(kernel: Kernel, client: RestClient, verb: 'get' | 'create'): RestResponse {
  let res: RestResponse | undefined;
  client.request({ verb, resource: 'pods', namespace: 'default', name: 'p' }, (r) => (res = r));
  kernel.runFor(60_000);
  return res!;
}

describe('RestClient requests', () => {
  it.each([
    ['get', 2, 200, undefined],
    ['create', 1, 0, 'Post "https://server:6443/api/v1/namespaces/default/pods/p": read: connection reset by peer'],
  ] as const)('%s after a reset connection: %i attempt(s), code %i', (verb, attempts, code, message) => {
    let n = 0;
    const { kernel, client, received } = setup((msg, reply) => {
      if (msg.type !== 'api.request') return;
      reply(n++ === 0 ? { type: 'api.failure', id: msg.id, error: 'read: connection reset by peer' } : ok(msg.id));
    });
    const res = call(kernel, client, verb);
    expect(received).toHaveLength(attempts);
    expect(res.code).toBe(code);
    if (message) expect((res.body as { message: string }).message).toBe(message);
  });

  it('a retry waits for a token too, and its long wait is logged with the retry\'s reason (tryThrottleWithInfo)', () => {
    let n = 0;
    const { kernel, client, received } = setup((msg, reply) => {
      if (msg.type !== 'api.request') return;
      reply(n++ === 0 ? { type: 'api.failure', id: msg.id, error: 'read: connection reset by peer' } : ok(msg.id));
    });
    const lines: string[] = [];
    // one token every 4 s: the first try takes the burst, the retry (due 1 s after the failure came
    // back, 4 ms of round trip later) waits the rest
    const res = call(kernel, client.withLimits({ qps: 0.25, burst: 1 }, new ThrottleLog((l) => lines.push(l))), 'get');
    expect(res.code).toBe(200);
    expect(received).toHaveLength(2);
    expect(lines).toEqual([
      '"Waited before sending request" delay="2.996s" reason="retries: 1, retry-after: 1s - retry-reason: due to retryable error, error: ' +
        'Get \\"https://server:6443/api/v1/namespaces/default/pods/p\\": read: connection reset by peer" verb="GET" URL="https://server:6443/api/v1/namespaces/default/pods/p"',
    ]);
  });

  it('sends credentials, impersonation headers and the body as JSON text', () => {
    const { kernel, client, received } = setup((msg, reply) => reply(ok(msg.id)));
    client.impersonate({ user: 'jane', groups: ['devs'] }).request({ verb: 'create', resource: 'pods', namespace: 'default', body: { a: 1 } }, () => {});
    kernel.runFor(100);
    expect(received[0]).toMatchObject({ type: 'api.request', req: { credentials: { token: 't' }, impersonate: { user: 'jane', groups: ['devs'] }, bodyJson: '{"a":1}' } });
  });

  it('gives up at the deadline when nothing answers', () => {
    const { kernel, client } = setup(() => {});
    const res = call(kernel, client, 'get');
    expect(res.transportError).toBe('context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
  });

  it('is refused at once when nothing listens', () => {
    const { kernel, client } = setup(() => {});
    kernel.net.unregister('server');
    const res = call(kernel, client, 'get');
    expect((res.body as { message: string }).message).toBe('The connection to the server server:6443 was refused - did you specify the right host or port?');
  });
});

describe('RestClient retries the server asked for (checkWait)', () => {
  const status = (code: number, retryAfterSeconds?: number): string => JSON.stringify({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'm', code,
    ...(retryAfterSeconds === undefined ? {} : { details: { retryAfterSeconds } }),
  });

  /** The server answers `first` for the first `times` requests, then 200; returns when each came. */
  function scripted(first: { code: number; retryAfterSeconds?: number }, times: number, verb: 'get' | 'create', timeoutMs?: number) {
    const at: number[] = [];
    let n = 0;
    const { kernel, client } = setup((msg, reply) => {
      if (msg.type !== 'api.request') return;
      at.push(kernel.now());
      reply(n++ < times ? { type: 'api.response', id: msg.id, code: first.code, bodyJson: status(first.code, first.retryAfterSeconds) } : ok(msg.id));
    });
    const c = timeoutMs ? new RestClient(
      { now: () => kernel.now(), setTimer: (ms, fn) => kernel.setTimer(ms, fn), send: (f, t, m) => kernel.send(f, t, m), setHandler: (x, h) => kernel.setHandler(x, h), isUp: (x) => kernel.net.isUp(x) },
      { name: 'client2', server: 'server', timeoutMs },
    ) : client;
    const res = call(kernel, c, verb);
    return { res, at };
  }

  it.each([
    // code, Retry-After, verb, requests sent, final code
    [429, 1, 'get', 2, 200],
    [429, 1, 'create', 2, 200], // a write too: the server said it did not act on it
    [503, 2, 'get', 2, 200],
    [500, 1, 'create', 2, 200],
    [429, undefined, 'get', 1, 429], // no Retry-After: the caller gets the 429
    [429, 0, 'get', 1, 429], // a zero is not sent as a header
    [409, 1, 'get', 1, 409], // only 429 and 5xx may ask for a wait
    [404, 5, 'create', 1, 404],
  ] as const)('%i with Retry-After %s on %s: %i request(s), then %i', (code, retryAfterSeconds, verb, sent, finalCode) => {
    const { res, at } = scripted({ code, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) }, 1, verb);
    expect(at).toHaveLength(sent);
    expect(res.code).toBe(finalCode);
  });

  it('waits the seconds the server asked for before sending again', () => {
    const { at } = scripted({ code: 429, retryAfterSeconds: 3 }, 2, 'get', 60_000);
    expect(at).toHaveLength(3);
    // the retry leaves 3 s after the answer came back; the rest is the round trip
    expect(at[1]! - at[0]!).toBe(3_004);
    expect(at[2]! - at[1]!).toBe(3_004);
  });

  it('stops after 10 retries and returns the last answer', () => {
    const { res, at } = scripted({ code: 429, retryAfterSeconds: 1 }, 100, 'get', 60_000);
    expect(at).toHaveLength(11);
    expect(res.code).toBe(429);
  });

  it('a retry that outlives the deadline ends in the client timeout', () => {
    // Timeout 5 s: the 10 s wait of a PodDisruptionBudget that is "still being processed" is cut short
    const { res, at } = scripted({ code: 429, retryAfterSeconds: 10 }, 1, 'create');
    expect(at).toHaveLength(1);
    expect(res.transportError).toBe('context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
  });

  it('a long wait for its token is logged with getRetryReason\'s text for a 429 and for a 5xx', () => {
    for (const [code, reason] of [
      [429, 'retries: 1, retry-after: 1s - retry-reason: due to server-side throttling, FlowSchema UID: \\"\\"'],
      [503, 'retries: 1, retry-after: 1s - retry-reason: 503'],
    ] as const) {
      let n = 0;
      const { kernel, client } = setup((msg, reply) => {
        if (msg.type !== 'api.request') return;
        reply(n++ === 0 ? { type: 'api.response', id: msg.id, code, bodyJson: status(code, 1) } : ok(msg.id));
      });
      const lines: string[] = [];
      call(kernel, client.withLimits({ qps: 0.25, burst: 1 }, new ThrottleLog((l) => lines.push(l))), 'get');
      expect(lines).toEqual([
        `"Waited before sending request" delay="2.996s" reason="${reason}" verb="GET" URL="https://server:6443/api/v1/namespaces/default/pods/p"`,
      ]);
    }
  });
});

describe('RestClient watch refusals the server asked to retry (request.go Watch)', () => {
  const refusal = (code: number, retryAfterSeconds?: number): string => JSON.stringify({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'storage is (re)initializing', code,
    ...(retryAfterSeconds === undefined ? {} : { details: { retryAfterSeconds } }),
  });

  /** The server refuses the first `times` watches with `code`, then streams one event. */
  function refusedWatch(code: number, retryAfterSeconds: number | undefined, times: number) {
    const at: number[] = [];
    const { kernel, client } = setup((msg, reply) => {
      if (msg.type === 'api.ping') return reply({ type: 'api.pong', id: msg.id, alive: true, lastSeq: 1 });
      if (msg.type !== 'api.watch') return;
      at.push(kernel.now());
      if (at.length <= times) return reply({ type: 'api.watch.close', id: msg.id, seq: 1, errorJson: refusal(code, retryAfterSeconds) });
      reply({ type: 'api.watch.event', id: msg.id, seq: 1, eventJson: '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p"}}}' });
    });
    const events: RestWatchEvent[] = [];
    const closed: unknown[] = [];
    client.watch({ verb: 'watch', resource: 'pods', namespace: 'default' }, { onEvent: (e) => events.push(e), onClose: (e) => closed.push(e) });
    kernel.runFor(600_000);
    return { at, events, closed };
  }

  it('asks again after the Retry-After wait, and the stream then flows', () => {
    const { at, events, closed } = refusedWatch(429, 2, 2);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBe(2_004);
    expect(events.map((e) => e.type)).toEqual(['ADDED']);
    expect(closed).toEqual([]);
  });

  it('hands the refusal to the caller without Retry-After, for other codes, and after 10 retries', () => {
    for (const [code, retryAfter, times, sent] of [[429, undefined, 1, 1], [410, 1, 1, 1], [503, 1, 100, 11]] as const) {
      const { at, events, closed } = refusedWatch(code, retryAfter, times);
      expect(at).toHaveLength(sent);
      expect(events).toEqual([]);
      expect(closed).toEqual([expect.objectContaining({ code })]);
    }
  });
});

describe('RestClient watch streams', () => {
  const event = (id: number, seq: number): WireMessage => ({ type: 'api.watch.event', id, seq, eventJson: `{"type":"ADDED","object":{"n":${seq}}}` });

  function watch(script: Script) {
    const s = setup(script);
    const events: number[] = [];
    const closed: unknown[] = [];
    s.client.watch({ verb: 'watch', resource: 'pods' }, {
      onEvent: (e: RestWatchEvent) => events.push((e.object as { n: number }).n),
      onClose: (err) => closed.push(err ?? 'clean'),
    });
    return { ...s, events, closed };
  }

  it('delivers reordered and duplicated events in sequence order, then the close', () => {
    const w = watch((msg, reply) => {
      if (msg.type !== 'api.watch') return;
      reply(event(msg.id, 2), 1);
      reply(event(msg.id, 1), 5);
      reply(event(msg.id, 1), 6);
      reply({ type: 'api.watch.close', id: msg.id, seq: 4 }, 7);
      reply(event(msg.id, 3), 9);
    });
    w.kernel.runFor(100);
    expect(w.events).toEqual([1, 2, 3]);
    expect(w.closed).toEqual(['clean']);
  });

  it('hands every watcher of one event the same frozen object, and responses stay private copies', () => {
    const kernel = createKernel({ seed: 1, link: { jitterMs: 0 } });
    const text = '{"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"shared","labels":{"a":"b"}}}}';
    kernel.net.register<WireMessage>('server', (msg, from) => {
      if (msg.type === 'api.watch') kernel.send('server', from, { type: 'api.watch.event', id: msg.id, seq: 1, eventJson: text.slice(0) });
      if (msg.type === 'api.request') kernel.send('server', from, ok(msg.id));
    });
    const seen: RestWatchEvent[] = [];
    const bodies: unknown[] = [];
    for (const name of ['informer-a', 'informer-b']) {
      const c = new RestClient(
        {
          now: () => kernel.now(), setTimer: (ms, fn) => kernel.setTimer(ms, fn), send: (f, t, m) => kernel.send(f, t, m),
          setHandler: (n, h) => kernel.setHandler(n, h), isUp: (n) => kernel.net.isUp(n),
        },
        { name, server: 'server', serverURL: 'https://server:6443', timeoutMs: 5_000, credentials: { token: 't' } },
      );
      c.watch({ verb: 'watch', resource: 'pods' }, { onEvent: (e) => seen.push(e), onClose: () => {} });
      c.request({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' }, (r) => bodies.push(r.body));
    }
    kernel.runFor(100);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    const labels = (seen[0]!.object as { metadata: { labels: Record<string, string> } }).metadata.labels;
    expect(Object.isFrozen(labels)).toBe(true);
    expect(() => {
      labels.a = 'changed';
    }).toThrow(TypeError);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).not.toBe(bodies[1]);
    expect(Object.isFrozen(bodies[0])).toBe(false);
  });

  it('calls the stream broken when a gap does not fill', () => {
    const w = watch((msg, reply) => {
      if (msg.type !== 'api.watch') return;
      reply(event(msg.id, 1));
      reply(event(msg.id, 3));
    });
    w.kernel.runFor(1000);
    expect(w.events).toEqual([1]);
    expect(w.closed).toHaveLength(1);
    expect((w.closed[0] as { message: string }).message).toBe('Get "https://server:6443/api/v1/pods?watch=true": read: connection reset by peer');
  });

  it('keeps a busy stream in which some message is always early (a gap that keeps filling is no loss)', () => {
    const w = watch((msg, reply) => {
      if (msg.type !== 'api.watch') return;
      // for two seconds each even message overtakes the odd one before it, which comes 3 ms late
      // and after the next even one: some message is always early, but every gap fills in time
      for (let k = 2; k <= 2000; k += 2) reply(event(msg.id, k), k);
      for (let k = 1; k < 2000; k += 2) reply(event(msg.id, k), k + 3);
    });
    w.kernel.runFor(3000);
    expect(w.closed).toEqual([]);
    expect(w.events).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
  });

  it('waits for a tail the pong overtook instead of calling it lost', () => {
    const w = watch((msg, reply) => {
      if (msg.type === 'api.watch') reply(event(msg.id, 1));
      if (msg.type === 'api.ping') {
        reply({ type: 'api.pong', id: msg.id, alive: true, lastSeq: 2 });
        reply(event(msg.id, 2), 50);
      }
    });
    w.kernel.runFor(31_000);
    expect(w.closed).toEqual([]);
    expect(w.events).toEqual([1, 2]);
  });

  it('pings a quiet stream and finds a lost tail from the pong', () => {
    const w = watch((msg, reply) => {
      if (msg.type === 'api.watch') reply(event(msg.id, 1));
      if (msg.type === 'api.ping') reply({ type: 'api.pong', id: msg.id, alive: true, lastSeq: 2 });
    });
    w.kernel.runFor(29_000);
    expect(w.closed).toEqual([]);
    w.kernel.runFor(2_000);
    expect((w.closed[0] as { message: string }).message).toMatch(/read: connection reset by peer$/);
  });

  it('keeps a quiet stream whose pings are answered', () => {
    const w = watch((msg, reply) => {
      if (msg.type === 'api.watch') reply(event(msg.id, 1));
      if (msg.type === 'api.ping') reply({ type: 'api.pong', id: msg.id, alive: true, lastSeq: 1 });
    });
    w.kernel.runFor(300_000);
    expect(w.closed).toEqual([]);
    expect(w.received.filter((m) => m.type === 'api.ping')).toHaveLength(9); // one per 30 s of silence (+ round trips)
  });

  it('closes a stream whose pings go unanswered', () => {
    const w = watch((msg, reply) => {
      if (msg.type === 'api.watch') reply(event(msg.id, 1));
    });
    w.kernel.runFor(44_000);
    expect(w.closed).toEqual([]);
    w.kernel.runFor(2_000);
    expect((w.closed[0] as { message: string }).message).toMatch(/http2: client connection lost$/);
  });
});

describe('RestClient connections', () => {
  const connOf = (m: WireMessage): number | undefined => (m.type === 'api.request' || m.type === 'api.watch' ? m.conn : undefined);

  it('sends everything of a client and its withLimits views on one connection; another process gets its own', () => {
    const { kernel, client, received } = setup((msg, reply) => {
      if (msg.type === 'api.request') reply(ok(msg.id));
    });
    const heartbeat = client.withLimits({ qps: 0, burst: 0 });
    const kubectlRun = client.withOwnConnection().withLimits({ qps: 5, burst: 10 });
    for (const c of [client, heartbeat, kubectlRun]) c.request({ verb: 'get', resource: 'pods', name: 'p' }, () => {});
    client.watch({ verb: 'watch', resource: 'pods' }, { onEvent: () => {}, onClose: () => {} });
    kernel.runFor(100);
    const conns = received.map(connOf);
    expect(conns).toEqual([conns[0], conns[0], expect.any(Number), conns[0]]);
    expect(conns[2]).not.toBe(conns[0]);
  });

  it('closeAllConnections fails calls in flight (a GET retries on the new connection, a write does not) and ends watches', () => {
    const { kernel, client, received } = setup((msg, reply) => {
      // the first connection's calls hang (a replica that lost etcd); the new one answers
      if (msg.type === 'api.request' && msg.conn !== 0) reply(ok(msg.id));
    });
    const results: RestResponse[] = [];
    const closed: unknown[] = [];
    client.request({ verb: 'get', resource: 'pods', name: 'p' }, (r) => results.push(r));
    client.request({ verb: 'update', resource: 'pods', name: 'p', body: {} }, (r) => results.push(r));
    client.watch({ verb: 'watch', resource: 'pods' }, { onEvent: () => {}, onClose: (e) => closed.push(e) });
    kernel.runFor(100);
    client.closeAllConnections();
    kernel.runFor(2_000);
    expect(results.map((r) => r.code)).toEqual([0, 200]); // the update failed at once, the GET came back on the retry
    expect((results[0]!.body as { message: string }).message).toBe('Put "https://server:6443/api/v1/pods/p": use of closed network connection');
    expect((closed[0] as { message: string }).message).toMatch(/use of closed network connection$/);
    expect(received.filter((m) => m.type === 'api.watch.stop')).toHaveLength(1); // the server learns the stream is gone
    const gets = received.filter((m) => m.type === 'api.request' && m.req.verb === 'get').map(connOf);
    expect(gets).toHaveLength(2);
    expect(gets[1]).not.toBe(gets[0]);
  });
});

describe('RestClient decoding shortcuts', () => {
  const frozenPod = Object.freeze({ kind: 'Pod', metadata: Object.freeze({ name: 'p' }) });
  const withFrozen = (id: number): WireMessage => ({ type: 'api.response', id, code: 200, bodyJson: '{"kind":"Pod","metadata":{"name":"p"}}', frozenBody: frozenPod });

  it('hands a read-only caller the frozen body the server sent, and everyone else a fresh decoded copy', () => {
    const { kernel, client } = setup((msg, reply) => msg.type === 'api.request' && reply(withFrozen(msg.id)));
    const got: RestResponse[] = [];
    client.request({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' }, (r) => got.push(r), { readOnly: true });
    client.request({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' }, (r) => got.push(r));
    kernel.runFor(1_000);
    expect(got[0]!.body).toBe(frozenPod);
    expect(got[1]!.body).not.toBe(frozenPod);
    expect(got[1]!.body).toEqual(frozenPod);
    expect(Object.isFrozen(got[1]!.body)).toBe(false);
  });

  it('delivers the frozen event a watch event carries, or decodes (and freezes) its text', () => {
    const frozenEvent = Object.freeze({ type: 'ADDED', object: frozenPod });
    const { kernel, client } = setup((msg, reply) => {
      if (msg.type !== 'api.watch') return;
      reply({ type: 'api.watch.event', id: msg.id, seq: 1, eventJson: '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p"}}}', event: frozenEvent });
      reply({ type: 'api.watch.event', id: msg.id, seq: 2, eventJson: '{"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"p"}}}' });
    });
    const events: RestWatchEvent[] = [];
    client.watch({ verb: 'watch', resource: 'pods', namespace: 'default' }, { onEvent: (e) => events.push(e), onClose: () => undefined });
    kernel.runFor(1_000);
    expect(events[0]).toBe(frozenEvent);
    expect(events[1]).toEqual({ type: 'DELETED', object: { kind: 'Pod', metadata: { name: 'p' } } });
    expect(Object.isFrozen(events[1]!.object)).toBe(true);
  });
});
