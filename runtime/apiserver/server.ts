// One kube-apiserver replica as a process on the simulated network. Requests and watch streams
// arrive as messages and leave as messages, so a partition or a crash cuts them like a broken TCP
// connection would. Bodies cross the wire as JSON text (what HTTP carries), so no client can ever
// share memory with the server's caches. A watch event is serialized once and the text reused for
// every watcher, as upstream's cachingObject does (staging/src/k8s.io/apiserver/pkg/storage/cacher/
// caching_object.go). On every (re)start the replica builds a fresh ApiServer: caches are refilled
// from etcd, nothing of value lived in the old one.
import { isContainerExecResponse, isContainerLogsResponse, isContainerLogsStream } from '../api/index.ts';
import { FifoMemo, type Kernel, type ProcessContext } from '../kernel/index.ts';
import type { EtcdClient } from '../etcd/index.ts';
import { ApiServer, requestURI, type ApiServerOptions } from './api-server.ts';
import { adoptWireBody, copyWithout } from './encoding.ts';
import { networkKubeletClient, type NetworkKubeletClient } from './kubelet-client.ts';
import type { ApiRequest, ApiResponse, ApiWatchEvent, ApiWatchHandle } from './request.ts';

/** A request on the wire: ApiRequest with its body as JSON text. */
export type WireRequest = Omit<ApiRequest, 'body'> & { bodyJson?: string };

/**
 * The messages between clients, the load balancer and replicas. Ids are chosen by the sender of
 * 'api.request' / 'api.watch' and are unique per sender endpoint.
 * - 'api.failure' is a transport failure (no HTTP response): the connection was reset, refused...
 * - stream messages carry a sequence number (1, 2, ...): the network may lose or reorder them, a
 *   TCP connection would not, so the client delivers them in order and treats a gap that does not
 *   fill as a broken connection.
 * - pings are HTTP/2 PINGs on the connection carrying a watch (client-go's ReadIdleTimeout health
 *   check): 'api.pong' says whether the server still holds that stream and the last sequence
 *   number it sent, so a client that missed the tail of a stream finds out.
 * - `conn` names the client connection a request or watch travels on (one HTTP/2 connection per
 *   client): the load balancer pins a connection to one replica. 'api.conn.close' (id: the conn)
 *   is the client closing it (a kubectl run exits): the load balancer forgets the pin; a replica
 *   ignores it.
 * - Decoding shortcuts: a response whose body is one of the watch cache's deep-frozen objects
 *   carries that object as `frozenBody`, and a watch event of such an object carries the frozen
 *   event as `event`, beside the JSON text, which stays the message's content. They are exactly
 *   what parsing the text gives (the object was parsed from etcd's JSON and never changed), so a
 *   client may use them instead of decoding: watch streams always do (informers' objects are
 *   frozen and shared anyway), a request only when its caller promises not to change the result.
 */
export type ApiWireMessage =
  | { type: 'api.request'; id: number; req: WireRequest; conn?: number }
  | { type: 'api.response'; id: number; code: number; bodyJson: string; frozenBody?: unknown; warnings?: string[]; servedBy?: string }
  | { type: 'api.failure'; id: number; error: string }
  | { type: 'api.watch'; id: number; req: WireRequest; conn?: number }
  | { type: 'api.watch.event'; id: number; seq: number; eventJson: string; event?: unknown }
  | { type: 'api.watch.close'; id: number; seq?: number; errorJson?: string; transportError?: string }
  | { type: 'api.watch.stop'; id: number }
  | { type: 'api.ping'; id: number }
  | { type: 'api.pong'; id: number; alive: boolean; lastSeq?: number }
  | { type: 'api.conn.close'; id: number }; // id: the closed connection's number (conn)

export function isApiWireMessage(msg: unknown): msg is ApiWireMessage {
  return typeof msg === 'object' && msg !== null && typeof (msg as { type?: unknown }).type === 'string'
    && (msg as { type: string }).type.startsWith('api.');
}

/** Decodes a wire request back into the ApiRequest the pipeline takes (malformed JSON: a 400 body). */
export function decodeWireRequest(wire: WireRequest): ApiRequest | { badRequest: string } {
  // without a body the request is taken as it came, not copied: the server never changes a request
  if (!('bodyJson' in wire)) return wire;
  const bodyJson = wire.bodyJson;
  const rest: ApiRequest = copyWithout(wire, 'bodyJson');
  if (bodyJson === undefined) return rest;
  try {
    const body = JSON.parse(bodyJson) as unknown;
    adoptWireBody(body, bodyJson.length, bodyJson);
    rest.body = body;
    return rest;
  } catch (e) {
    return { badRequest: `error decoding request body: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export interface ApiServerReplicaOptions
  extends Omit<ApiServerOptions, 'etcd' | 'clock' | 'rng' | 'name'> {
  /** Process and endpoint name, e.g. "kube-apiserver-cp-1". */
  name: string;
  /** A new etcd client for each incarnation (its endpoint name must be unique per incarnation). */
  etcdClient(ctx: ProcessContext): EtcdClient & { close?(): void };
  /** Called with each incarnation's ApiServer (for metrics and the UI). */
  onStart?(server: ApiServer): void;
}

export interface ApiServerReplica {
  readonly name: string;
  /** The running incarnation's pipeline, undefined while the process is down. */
  current(): ApiServer | undefined;
  /** Crashes the process and releases its etcd client and caches (kill -9, then cleanup). */
  stop(): void;
  /** Starts the process again (no-op if it is running). */
  start(): void;
}

/** Spawns a replica on `kernel` and returns its handle. */
export function startApiServerReplica(kernel: Kernel, options: ApiServerReplicaOptions): ApiServerReplica {
  let server: ApiServer | undefined;
  let etcd: (EtcdClient & { close?(): void }) | undefined;
  const release = (): void => {
    server?.stop();
    etcd?.close?.();
    server = undefined;
    etcd = undefined;
  };
  const main = (ctx: ProcessContext): void => {
    release();
    etcd = options.etcdClient(ctx);
    const { etcdClient: _etcd, onStart: _onStart, ...apiOptions } = options;
    const kubelets = networkKubeletClient(ctx, (endpoint) => kernel.net.isUp(endpoint));
    server = new ApiServer({
      ...apiOptions,
      name: options.name,
      etcd,
      clock: { now: () => ctx.now(), setTimer: (ms, fn) => ctx.setTimer(ms, fn) },
      rng: ctx.rng,
      kubeletClient: kubelets,
    });
    serveOnNetwork(ctx, server, kubelets);
    server.start();
    server.onReady(() => ctx.trace('apiserver.ready', ''));
    options.onStart?.(server);
  };
  const proc = kernel.spawn(options.name, main);
  return {
    name: options.name,
    current: () => (proc.up ? server : undefined),
    stop() {
      if (!proc.up) return;
      kernel.crash(options.name);
      release();
    },
    start() {
      if (!proc.up) proc.start();
    },
  };
}

/** Wires one incarnation's message handler: requests, watch streams, pings, kubelets' answers. */
function serveOnNetwork(ctx: ProcessContext, server: ApiServer, kubelets: NetworkKubeletClient): void {
  const streams = new Map<string, { handle: ApiWatchHandle; lastSeq: () => number }>();
  ctx.onMessage((msg: unknown, from: string) => {
    if (isContainerLogsResponse(msg) || isContainerExecResponse(msg) || isContainerLogsStream(msg)) return kubelets.answer(msg);
    if (!isApiWireMessage(msg)) return;
    switch (msg.type) {
      case 'api.request': {
        const req = decodeWireRequest(msg.req);
        if ('badRequest' in req) return ctx.send(from, badRequestResponse(msg.id, req.badRequest, server.name));
        return server.serve(req, (res, uri) => {
          ctx.trace('apiserver.request', `${req.verb} ${uri} ${res.code}`);
          ctx.send(from, encodeResponse(msg.id, res));
        });
      }
      case 'api.watch': {
        const req = decodeWireRequest(msg.req);
        if ('badRequest' in req) return ctx.send(from, { type: 'api.watch.close', id: msg.id, transportError: req.badRequest });
        ctx.trace('apiserver.watch', requestURI({ ...req, verb: 'watch' }));
        const key = `${from}#${msg.id}`; // the stream's key, built only for stream messages
        let closed = false;
        let seq = 0;
        const handle = server.watch(req, {
          onEvent: (ev) => {
            const encoded = encodeEvent(ev);
            ctx.send(from, { type: 'api.watch.event', id: msg.id, seq: ++seq, eventJson: encoded.text, event: encoded.frozen });
          },
          onClose: (err) => {
            closed = true;
            streams.delete(key);
            ctx.send(from, { type: 'api.watch.close', id: msg.id, seq: ++seq, ...(err ? { errorJson: JSON.stringify(err) } : {}) });
          },
        });
        if (!closed) streams.set(key, { handle, lastSeq: () => seq });
        return;
      }
      case 'api.watch.stop': {
        const key = `${from}#${msg.id}`;
        streams.get(key)?.handle.stop();
        streams.delete(key);
        return;
      }
      case 'api.ping': {
        const stream = streams.get(`${from}#${msg.id}`);
        return ctx.send(from, { type: 'api.pong', id: msg.id, alive: stream !== undefined, lastSeq: stream?.lastSeq() ?? 0 });
      }
      default:
        return;
    }
  });
}

/**
 * The text of a watch event, built once per (type, object) and shared by every watcher of every
 * replica: the replicas' watch caches share their frozen objects, and the same string for the same
 * event lets clients find it in their decode memo by identity instead of rehashing a copy.
 * Bounded, oldest first out: a text is needed only while its event fans out, and keeping one per
 * object for as long as the watch cache keeps the object cost about 3 KB per pod at scale.
 */
const eventTexts = new FifoMemo<object, Partial<Record<ApiWatchEvent['type'], EncodedEvent>>>(4096);

/** A watch event's text, and the frozen event itself when its object is a deep-frozen cache object. */
interface EncodedEvent {
  text: string;
  frozen: Readonly<ApiWatchEvent> | undefined;
}

function encodeEvent(ev: ApiWatchEvent): EncodedEvent {
  let texts = eventTexts.get(ev.object);
  if (texts === undefined) eventTexts.set(ev.object, (texts = {}));
  return (texts[ev.type] ??= {
    text: `{"type":"${ev.type}","object":${JSON.stringify(ev.object)}}`,
    frozen: Object.isFrozen(ev.object) ? Object.freeze({ ...ev }) : undefined,
  });
}

/**
 * The response text of the watch caches' objects, made once per object: the API server freezes an
 * object only deeply (encoding.ts decodeShared, for the watch cache), so its text never changes.
 * Each kubelet reads its Node with resourceVersion=0 every 10 s, from the watch cache, and the
 * Node seldom changes: the same text serves each read. Bounded, oldest first out; a text is worth
 * keeping only until its object's next read.
 */
const frozenTexts = new FifoMemo<object, string>(1024);

function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = frozenTexts.get(value);
  if (text === undefined) frozenTexts.set(value, (text = JSON.stringify(value)));
  return text;
}

function encodeResponse(id: number, res: ApiResponse): ApiWireMessage {
  const msg: Extract<ApiWireMessage, { type: 'api.response' }> = { type: 'api.response', id, code: res.code, bodyJson: jsonOf(res.body) };
  if (typeof res.body === 'object' && res.body !== null && Object.isFrozen(res.body)) msg.frozenBody = res.body;
  if (res.warnings) msg.warnings = res.warnings;
  if (res.servedBy) msg.servedBy = res.servedBy;
  return msg;
}

function badRequestResponse(id: number, message: string, servedBy: string): ApiWireMessage {
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 };
  return { type: 'api.response', id, code: 400, bodyJson: JSON.stringify(status), servedBy };
}
