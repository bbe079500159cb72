// A REST client on the simulated network: what client-go's rest.Interface is to a component.
// mirrors k8s.io/client-go/rest: every request carries the kubeconfig credentials and any
// Impersonate-* headers; a request has a deadline on the (simulated) clock; a GET that failed
// because the connection broke is retried after an artificial "Retry-After: 1" (with_retry.go
// IsNextRetry + retryAfterResponse, at most 10 retries), never a write, because a write whose
// connection broke may already have happened; any request the server answered with a 429 or a 5xx
// carrying Retry-After is sent again after that wait (checkWait), from the same 10 retries. Watch
// streams are kept honest by HTTP/2 pings (client-go's ReadIdleTimeout / PingTimeout health
// check): a stream whose peer no longer knows it is closed with an error, and the informer
// re-watches. Requests (not watches) wait for a token of the client's rate limiter first
// (rate-limiter.ts: rest.Config QPS/Burst).
import { escapeComponent } from '../../api/index.ts';
import { FifoMemo } from '../../kernel/index.ts';
import { rateLimiterFor, retryReason, type ThrottleLog, type TokenBucketRateLimiter } from './rate-limiter.ts';
import {
  isWireMessage, type RestCredentials, type RestImpersonation, type RestRequest, type WireMessage, type WireRequest,
} from './wire.ts';

/** What the client needs from the simulation: the kernel satisfies it (isUp from its network). */
export interface RestHost {
  now(): number;
  setTimer(delayMs: number, fn: () => void): { cancel(): void };
  send(from: string, to: string, msg: unknown): void;
  setHandler(name: string, handler: ((msg: unknown, from: string) => void) | null): void;
  /** False when nothing listens at `name` (a crashed process): the connection is refused at once. */
  isUp(name: string): boolean;
}

export interface RestClientOptions {
  /** This client's network endpoint (unique), e.g. "kubectl" or "kube-scheduler". */
  name: string;
  /** The endpoint it dials: the load balancer, or a single replica. */
  server: string;
  /** How the server is named in error texts ("https://192.168.49.2:6443"). */
  serverURL?: string;
  credentials?: RestCredentials;
  userAgent?: string;
  /** Per-request deadline, simulated ms (client-go's Timeout; default 30 s). */
  timeoutMs?: number;
  /** Retries of an idempotent request after a broken connection (client-go default 10). */
  maxRetries?: number;
  /** Ping a watch stream's connection this often (client-go ReadIdleTimeout: 30 s). */
  pingIntervalMs?: number;
  /** A ping with no pong within this long breaks the stream (client-go PingTimeout: 15 s). */
  pingTimeoutMs?: number;
  /**
   * rest.Config QPS: the token bucket every request waits in (client-go Request.tryThrottle).
   * Unset or <= 0: unlimited (client-go's QPS -1; the simulation's own harness clients), so each
   * component sets its upstream default (runtime/cluster/client-rate-limits.ts). A client gets a
   * bucket of its own; its impersonate() views share it, as they share a rest.Config's limiter.
   */
  qps?: number;
  /** rest.Config Burst: the bucket's size (at least 1 when qps > 0). */
  burst?: number;
  /** The process's log for "Waited before sending request" lines; shared by its clients. */
  throttleLog?: ThrottleLog;
}

/** An HTTP answer, or (code 0, transportError) when there was none. Bodies are decoded JSON. */
export interface RestResponse {
  code: number;
  body: unknown;
  warnings?: string[];
  servedBy?: string;
  transportError?: string;
}

export interface RestWatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: unknown;
}

export interface RestWatchHandlers {
  onEvent(event: RestWatchEvent): void;
  /** The stream ended; `error` is a Status (server) or a transport Status (code 0). */
  onClose(error?: unknown): void;
}

const RETRY_AFTER_MS = 1000;
/** How long a stream waits for a missing message (reordered, not lost) before giving up on it. */
const STREAM_GAP_WAIT_MS = 200;

/** Why calls on a connection the client closed fail (Go's net.ErrClosed text). */
export const CLOSED_CONNECTION_ERROR = 'use of closed network connection';

export class RestClient {
  private readonly pending = new Map<number, (msg: WireMessage) => void>();
  private readonly streams = new Map<number, (msg: WireMessage) => void>();
  /** Each open watch's way to end as its connection closes (closeAllConnections). */
  private readonly breakers = new Map<number, (why: string) => void>();
  /** The connection this client and its impersonating views send on (see WireMessage `conn`). */
  private connection = { id: 0 };
  private nextConnectionId = 1;
  private nextId = 1;
  private closed = false;
  private limiter: TokenBucketRateLimiter | undefined;

  constructor(private readonly host: RestHost, readonly options: RestClientOptions, private readonly impersonation?: RestImpersonation, shared?: RestClient) {
    if (shared) {
      // a view with other impersonation headers or limits: same connection, same tables
      this.pending = shared.pending;
      this.streams = shared.streams;
      this.breakers = shared.breakers;
      this.connection = shared.connection;
      this.nextIdSource = shared.root();
      this.limiter = shared.limiter;
      return;
    }
    this.limiter = rateLimiterFor(options, host.now());
    host.setHandler(options.name, (msg) => this.onMessage(msg));
  }

  private nextIdSource: RestClient | undefined;

  /** The same client sending Impersonate-User/Group headers (kubectl --as/--as-group). */
  impersonate(who: RestImpersonation | undefined): RestClient {
    return new RestClient(this.host, this.options, who, this);
  }

  /** The same client presenting other credentials (kubectl --token). */
  withCredentials(credentials: RestCredentials): RestClient {
    return new RestClient(this.host, { ...this.options, credentials }, this.impersonation, this);
  }

  /**
   * The same connection with a token bucket of its own (client-go: a rest.Config copy builds a
   * new limiter), e.g. one per kubectl run, as each kubectl process starts with a full bucket.
   */
  withLimits(limits: { qps: number; burst: number }, throttleLog?: ThrottleLog): RestClient {
    const options: RestClientOptions = { ...this.options, qps: limits.qps, burst: limits.burst };
    if (throttleLog) options.throttleLog = throttleLog;
    const view = new RestClient(this.host, options, this.impersonation, this);
    view.limiter = rateLimiterFor(limits, this.host.now());
    return view;
  }

  /**
   * The same client as another process uses it: its own connection (a kubectl run dials the server
   * anew, so a load balancer may pick another replica for it). Views made with withLimits keep
   * their client's connection, as the kubelet's clients share one transport (its heartbeat and
   * event clients are rest.Config copies of the main one).
   */
  withOwnConnection(): RestClient {
    const view = new RestClient(this.host, this.options, this.impersonation, this);
    view.connection = { id: this.root().nextConnectionId++ };
    return view;
  }

  /**
   * Closes the connection of this client (and of the views sharing it), as the kubelet's dialer
   * CloseAll does after repeated heartbeat failures (pkg/kubelet/kubelet.go onRepeatedHeartbeatFailure,
   * util/connrotation): calls in flight fail (a GET is retried, on a new connection), watches end
   * with an error so their informers watch again, and later calls go over a new connection, which
   * a load balancer may send to another replica.
   */
  closeAllConnections(): void {
    this.connection.id = this.root().nextConnectionId++;
    for (const [id, handler] of [...this.pending]) handler({ type: 'api.failure', id, error: CLOSED_CONNECTION_ERROR });
    for (const breakStream of [...this.breakers.values()]) breakStream(CLOSED_CONNECTION_ERROR);
  }

  /**
   * The process is done with this client's connection (a kubectl run exits): the connection closes,
   * so a load balancer in front forgets it (HAProxy drops a connection its client closed). Only a
   * client whose calls and watches have all ended should call it.
   */
  endConnection(): void {
    this.host.send(this.options.name, this.options.server, { type: 'api.conn.close', id: this.connection.id } satisfies WireMessage);
  }

  /** Detaches the endpoint: later answers are dropped, open streams are forgotten. */
  close(): void {
    this.closed = true;
    this.host.setHandler(this.options.name, null);
  }

  /**
   * Sends `req` (with retries and a deadline) and calls `cb` with the response. `readOnly`: the
   * caller never changes the body it gets, so a shared frozen object the server sent along with the
   * text (a watch-cache read) is handed over as is instead of decoded.
   */
  request(req: RestRequest, cb: (res: RestResponse) => void, options?: { readOnly?: boolean }): void {
    const readOnly = options?.readOnly === true;
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const maxRetries = this.options.maxRetries ?? 10;
    const idempotent = req.verb === 'get' || req.verb === 'list';
    let finished = false;
    let attempt = 0;
    let retryTimer: { cancel(): void } | undefined;
    let currentId = -1;
    let deadline: { cancel(): void } | undefined;
    const finish = (res: RestResponse): void => {
      if (finished) return;
      finished = true;
      deadline?.cancel();
      retryTimer?.cancel();
      this.pending.delete(currentId);
      cb(res);
    };
    const wire = this.encode(req);
    const send = (): void => {
      if (finished || this.closed) return;
      if (!this.host.isUp(this.options.server)) {
        return finish(refused(this.serverURL()));
      }
      currentId = this.newId();
      this.pending.set(currentId, (msg) => {
        this.pending.delete(currentId);
        if (msg.type === 'api.response') {
          const res: RestResponse = { code: msg.code, body: readOnly && msg.frozenBody !== undefined ? msg.frozenBody : decode(msg.bodyJson) };
          if (msg.warnings) res.warnings = msg.warnings;
          if (msg.servedBy) res.servedBy = msg.servedBy;
          // with_retry.go IsNextRetry + checkWait: a 429 or 5xx carrying Retry-After is sent again
          // after that many seconds, whatever the verb (the server said it did not act on it)
          const waitSeconds = retryAfterSeconds(res);
          if (waitSeconds !== undefined && attempt < maxRetries) {
            attempt++;
            const why = responseRetryReason(attempt, waitSeconds, res.code);
            retryTimer = this.host.setTimer(waitSeconds * 1000, () => this.throttle(req, send, why));
            return;
          }
          return finish(res);
        }
        if (msg.type !== 'api.failure') return;
        if (idempotent && attempt < maxRetries) {
          attempt++;
          // with_retry.go Before: a retry waits for a token too, and a long wait is logged with the
          // retry's reason (tryThrottleWithInfo)
          const why = retryReason(attempt, RETRY_AFTER_MS, transportErrorText(req, this.serverURL(), msg.error));
          retryTimer = this.host.setTimer(RETRY_AFTER_MS, () => this.throttle(req, send, why));
          return;
        }
        finish(transportFailure(req, this.serverURL(), msg.error));
      });
      this.host.send(this.options.name, this.options.server, { type: 'api.request', id: currentId, req: wire, conn: this.connection.id } satisfies WireMessage);
    };
    // request.go request(): the first try is throttled before the client's timeout starts, so a
    // throttled client never times out a request it has not sent yet
    this.throttle(req, () => {
      deadline = this.host.setTimer(timeoutMs, () =>
        finish(transportFailure(req, this.serverURL(), 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)')),
      );
      send();
    });
  }

  /**
   * Runs `go` once the rate limiter grants a token: at once when one is there (or no limiter). A
   * long wait is logged, with the retry's reason for a retry (request.go tryThrottleWithInfo).
   */
  private throttle(req: RestRequest, go: () => void, reason?: string): void {
    const waitMs = this.limiter?.reserve(this.host.now()) ?? 0;
    if (waitMs === 0) return go();
    this.host.setTimer(waitMs, () => {
      this.options.throttleLog?.waited(this.host.now(), waitMs, httpMethod(req), this.serverURL() + pathOf(req) + queryOf(req), reason);
      go();
    });
  }

  /**
   * Opens a watch stream; returns its stop handle. Not rate limited: request.go Watch ("We
   * specifically don't want to rate limit watches"); the LIST before it is.
   */
  watch(req: RestRequest, handlers: RestWatchHandlers): { stop(): void } {
    const id = this.newId();
    const maxRetries = this.options.maxRetries ?? 10;
    let open = true;
    /** Whether the server accepted the watch (an event came): a refusal before that may be retried. */
    let started = false;
    let attempt = 0;
    let retryTimer: { cancel(): void } | undefined;
    let lastHeardMs = this.host.now();
    const pingIntervalMs = this.options.pingIntervalMs ?? 30_000;
    const pingTimeoutMs = this.options.pingTimeoutMs ?? 15_000;
    let pingTimer: { cancel(): void } | undefined;
    let pongTimer: { cancel(): void } | undefined;
    let gapTimer: { cancel(): void } | undefined;
    let expectedSeq = 1;
    const held = new Map<number, WireMessage>();
    const cancelTimers = (): void => {
      pingTimer?.cancel();
      pongTimer?.cancel();
      gapTimer?.cancel();
      gapTimer = undefined;
      retryTimer?.cancel();
    };
    /** The stream is over for this client: no more messages, timers or breaker. */
    const forget = (): void => {
      open = false;
      this.streams.delete(id);
      this.breakers.delete(id);
      cancelTimers();
    };
    const end = (error?: unknown): void => {
      if (!open) return;
      forget();
      handlers.onClose(error);
    };
    const broken = (why: string): void => end(transportFailure({ ...req, verb: 'watch' }, this.serverURL(), why).body);
    if (!this.host.isUp(this.options.server)) {
      this.host.setTimer(0, () => end(refused(this.serverURL()).body));
      return { stop: () => { open = false; } };
    }
    // ping once the connection has been silent for pingIntervalMs (ReadIdleTimeout)
    const schedulePing = (delayMs = pingIntervalMs): void => {
      pingTimer = this.host.setTimer(delayMs, () => {
        if (!open) return;
        const idleMs = this.host.now() - lastHeardMs;
        if (idleMs < pingIntervalMs) return schedulePing(pingIntervalMs - idleMs);
        this.host.send(this.options.name, this.options.server, { type: 'api.ping', id } satisfies WireMessage);
        pongTimer = this.host.setTimer(pingTimeoutMs, () => broken('http2: client connection lost'));
      });
    };
    // TCP gives a stream in order or not at all; the simulated network may drop or reorder, so
    // hold early messages until the gap fills, and call the connection broken if it does not.
    const deliver = (msg: WireMessage): void => {
      if (msg.type === 'api.watch.event') {
        started = true;
        return handlers.onEvent((msg.event ?? decodeWatchEvent(msg.eventJson)) as RestWatchEvent);
      }
      if (msg.type !== 'api.watch.close') return;
      if (msg.transportError !== undefined) return broken(msg.transportError);
      const error = msg.errorJson === undefined ? undefined : decode(msg.errorJson);
      // request.go Watch: a refusal (no stream yet) that is a 429 or 5xx with Retry-After is asked
      // again after that wait, from the same retries as any request (with_retry.go IsNextRetry)
      const code = (error as { code?: unknown } | undefined)?.code;
      const waitSeconds = !started && typeof code === 'number' ? retryAfterSeconds({ code, body: error }) : undefined;
      if (waitSeconds !== undefined && attempt < maxRetries) {
        attempt++;
        const why = responseRetryReason(attempt, waitSeconds, code as number);
        // no stream to keep alive meanwhile: the next attempt starts its own
        cancelTimers();
        retryTimer = this.host.setTimer(waitSeconds * 1000, () => this.throttle(req, () => {
          if (!open) return;
          expectedSeq = 1;
          sentUpTo = 0;
          held.clear();
          lastHeardMs = this.host.now();
          schedulePing();
          sendWatch();
        }, why));
        return;
      }
      end(error);
    };
    // A gap is a message the stream is known to hold (a later one arrived early, or a pong said the
    // server sent it) that has not arrived. It is lost only if the stream makes no progress past it
    // for STREAM_GAP_WAIT_MS: under a steady flow some message is nearly always early, so the
    // timer waits for one missing message, not for the stream to have no early message at all.
    let sentUpTo = 0;
    const watchGap = (): void => {
      if (held.size === 0 && sentUpTo < expectedSeq) {
        gapTimer?.cancel();
        gapTimer = undefined;
        return;
      }
      if (gapTimer) return;
      const waitingFor = expectedSeq;
      gapTimer = this.host.setTimer(STREAM_GAP_WAIT_MS, () => {
        gapTimer = undefined;
        if (!open) return;
        if (expectedSeq === waitingFor) return broken('read: connection reset by peer');
        watchGap();
      });
    };
    const receive = (msg: WireMessage & { seq?: number }): void => {
      if (msg.seq === undefined) return deliver(msg); // from the balancer: the connection itself ended
      if (msg.seq < expectedSeq || held.has(msg.seq)) return; // a duplicate
      held.set(msg.seq, msg);
      for (let next = held.get(expectedSeq); next && open; next = held.get(expectedSeq)) {
        held.delete(expectedSeq++);
        deliver(next);
      }
      if (open) watchGap();
    };
    this.streams.set(id, (msg) => {
      lastHeardMs = this.host.now();
      if (msg.type === 'api.watch.event' || msg.type === 'api.watch.close') return receive(msg);
      if (msg.type !== 'api.pong') return;
      pongTimer?.cancel();
      if (!msg.alive) return broken('unexpected EOF');
      // the server sent more than we have seen: the tail is late (the pong overtook it) or lost
      sentUpTo = Math.max(sentUpTo, msg.lastSeq ?? 0);
      watchGap();
      schedulePing();
    });
    this.breakers.set(id, (why) => {
      // the server and any balancer learn the stream is gone (a closed TCP connection tells them)
      this.host.send(this.options.name, this.options.server, { type: 'api.watch.stop', id } satisfies WireMessage);
      broken(why);
    });
    schedulePing();
    const sendWatch = (): void => {
      this.host.send(this.options.name, this.options.server, { type: 'api.watch', id, req: this.encode({ ...req, verb: 'watch' }), conn: this.connection.id } satisfies WireMessage);
    };
    sendWatch();
    return {
      stop: () => {
        if (!open) return;
        forget();
        this.host.send(this.options.name, this.options.server, { type: 'api.watch.stop', id } satisfies WireMessage);
      },
    };
  }

  private root(): RestClient {
    return this.nextIdSource ?? this;
  }

  private newId(): number {
    return this.root().nextId++;
  }

  private serverURL(): string {
    return this.options.serverURL ?? `https://${this.options.server}:6443`;
  }

  private encode(req: RestRequest): WireRequest {
    const { body, ...wire }: WireRequest & { body?: unknown } = req; // the rest is a fresh object already
    if (body !== undefined) wire.bodyJson = JSON.stringify(body);
    if (this.options.credentials) wire.credentials = this.options.credentials;
    if (this.impersonation) wire.impersonate = this.impersonation;
    if (this.options.userAgent) wire.userAgent = this.options.userAgent;
    return wire;
  }

  private onMessage(msg: unknown): void {
    if (!isWireMessage(msg)) return;
    if (msg.type === 'api.response' || msg.type === 'api.failure') this.pending.get(msg.id)?.(msg);
    else this.streams.get(msg.id)?.(msg);
  }
}

/**
 * Decoded watch events, shared by every client that receives the same event text: each change
 * reaches every informer of its resource, and one parse and one copy serve them all instead of one
 * per watcher (at 30,000 pods those copies were most of the heap). Shared objects are frozen, which
 * enforces client-go's rule that objects from an informer are never mutated. A pure function's
 * memo, bounded: it only needs to live as long as one event's fan-out.
 */
const sharedWatchEvents = new FifoMemo<string, unknown>(4096);

function decodeWatchEvent(json: string): unknown {
  let ev = sharedWatchEvents.get(json);
  if (ev === undefined) {
    ev = deepFreeze(decode(json));
    sharedWatchEvents.set(json, ev);
  }
  return ev;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function decode(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

const HTTP_METHODS = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' } as const;

function httpMethod(req: RestRequest): string {
  return HTTP_METHODS[req.verb];
}

/** The query string as Go's url.Values.Encode writes it (keys sorted, QueryEscape'd), for log lines. */
function queryOf(req: RestRequest): string {
  const q = req.query;
  if (!q) return '';
  const escape = (v: string): string => escapeComponent(v).replace(/%20/g, '+');
  const pairs = Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => `${escape(k)}=${escape(String(v))}`).sort();
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/**
 * checkWait (client-go request.go): the seconds a 429 or 5xx answer asks the client to wait. The
 * API server sends the Retry-After header exactly when its Status has details.retryAfterSeconds > 0
 * (responsewriters.ErrorNegotiated), so the body stands for the header here.
 */
export function retryAfterSeconds(res: { code: number; body: unknown }): number | undefined {
  if (res.code !== 429 && res.code < 500) return undefined;
  const seconds = (res.body as { details?: { retryAfterSeconds?: unknown } } | null)?.details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * getRetryReason (with_retry.go) for a retry the server asked for. A 429 is taken for priority and
 * fairness throttling; the simulated server has no APF, so the FlowSchema UID header is empty.
 */
export function responseRetryReason(retries: number, seconds: number, code: number): string {
  const message = `retries: ${retries}, retry-after: ${seconds}s`;
  return code === 429 ? `${message} - retry-reason: due to server-side throttling, FlowSchema UID: ""` : `${message} - retry-reason: ${code}`;
}

/** Go's http client error text: `Get "https://host:6443/api/v1/pods": EOF`. */
function transportFailure(req: RestRequest, serverURL: string, error: string): RestResponse {
  return { code: 0, transportError: error, body: failureStatus(transportErrorText(req, serverURL, error)) };
}

/** A *url.Error's text: `Get "https://...": <error>`. */
function transportErrorText(req: RestRequest, serverURL: string, error: string): string {
  const m = httpMethod(req);
  return `${m.charAt(0) + m.slice(1).toLowerCase()} "${serverURL}${pathOf(req)}": ${error}`;
}

function refused(serverURL: string): RestResponse {
  const host = serverURL.replace(/^https?:\/\//, '');
  const message = `The connection to the server ${host} was refused - did you specify the right host or port?`;
  return { code: 0, transportError: 'connection refused', body: failureStatus(message) };
}

function failureStatus(message: string): { kind: 'Status'; apiVersion: 'v1'; metadata: object; status: 'Failure'; message: string; reason: ''; code: 0 } {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: '', code: 0 };
}

/** The URL path of a request, for error texts. */
export function pathOf(req: RestRequest): string {
  if (req.path !== undefined) return req.path;
  let uri = req.group ? `/apis/${req.group}/v1` : '/api/v1';
  if (req.namespace) uri += `/namespaces/${req.namespace}`;
  uri += `/${req.resource ?? ''}`;
  if (req.name) uri += `/${req.name}`;
  if (req.subresource) uri += `/${req.subresource}`;
  return req.verb === 'watch' ? `${uri}?watch=true` : uri;
}
