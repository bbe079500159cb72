// The API server's client for kubelets on the simulated network (kube-apiserver's
// --kubelet-* connection: pkg/kubelet/client): the pods/log handler's one way to a node.
import { escapeComponent, type ContainerExecRequest, type ContainerExecResponse, type ContainerLogsChunk, type ContainerLogsEnd, type ContainerLogsRequest, type ContainerLogsResponse, type ContainerLogsStop, type PodLogOptions } from '../api/index.ts';
import type { ProcessContext } from '../kernel/index.ts';
import type { KubeletClient } from './handlers/log.ts';

/** net.Dialer's 30 s timeout (utilnet.SetTransportDefaults) for a kubelet that does not answer. */
const KUBELET_DIAL_TIMEOUT_MS = 30_000;

export type NetworkKubeletClient = KubeletClient & { answer(msg: ContainerLogsResponse | ContainerExecResponse | ContainerLogsChunk | ContainerLogsEnd): void };

/**
 * The API server's kubelet client on the simulated network: one request message to the node's
 * kubelet, its answer matched by id. A kubelet endpoint that is down refuses the connection at
 * once (as the REST client treats a down API server); one that is up but unreachable (a
 * partition) gives the dial timeout's error when no answer comes.
 */
export function networkKubeletClient(ctx: ProcessContext, isUp: (endpoint: string) => boolean): NetworkKubeletClient {
  let lastId = 0;
  type Answer = { code: number; body: string; stdout?: string; stderr?: string; exitCode?: number; error?: string } | { error: string; code?: undefined };
  const pending = new Map<number, { done: (answer: Answer) => void; timer: { cancel(): void } }>();
  /**
   * Followed logs: their chunks and end in the kubelet's order (the simulated network may reorder
   * what TCP would not), held until the response has come and every earlier piece has.
   */
  const following = new Map<number, { started: boolean; next: number; held: Map<number, ContainerLogsChunk | ContainerLogsEnd>; chunk(text: string): void; end(): void }>();
  const drain = (id: number): void => {
    const stream = following.get(id);
    if (!stream?.started) return;
    for (let msg = stream.held.get(stream.next); msg && following.has(id); msg = stream.held.get(stream.next)) {
      stream.held.delete(stream.next++);
      if (msg.type === 'kubelet.containerLogs.chunk') stream.chunk(msg.text);
      else {
        following.delete(id);
        stream.end();
      }
    }
  };
  /**
   * Sends one call to the node's kubelet; `dialFailure` words a refused or timed-out connection
   * (the HTTP client's `Get "url": dial tcp ...` for logs, the upgrading proxy's bare dial error for exec).
   */
  const call = (target: { nodeName: string; address: string; port: number }, msg: ContainerLogsRequest | ContainerExecRequest, dialFailure: (why: string) => string, done: (answer: Answer) => void): void => {
    // the kubelet process's endpoint (startKubelet names it kubelet-<node>)
    const endpoint = `kubelet-${target.nodeName}`;
    if (!isUp(endpoint)) {
      ctx.setTimer(0, () => done({ error: dialFailure(`dial tcp ${target.address}:${target.port}: connect: connection refused`) }));
      return;
    }
    const timer = ctx.setTimer(KUBELET_DIAL_TIMEOUT_MS, () => {
      pending.delete(msg.id);
      done({ error: dialFailure(`dial tcp ${target.address}:${target.port}: i/o timeout`) });
    });
    pending.set(msg.id, { done, timer });
    ctx.send(endpoint, msg);
  };
  return {
    containerLogs(target, request, done) {
      const url = kubeletLogURL(target, request);
      call(target, { type: 'kubelet.containerLogs', id: ++lastId, ...request }, (why) => `Get "${url}": ${why}`, (a) => done('code' in a && a.code !== undefined ? { code: a.code, body: a.body } : { error: a.error ?? '' }));
    },
    followLogs(target, request, sink) {
      const id = ++lastId;
      const url = kubeletLogURL(target, request);
      let open = true;
      following.set(id, { started: false, next: 1, held: new Map(), chunk: (text) => sink.chunk(text), end: () => { open = false; sink.end(); } });
      call(target, { type: 'kubelet.containerLogs', id, ...request, options: { ...request.options, follow: true } }, (why) => `Get "${url}": ${why}`, (a) => {
        if (!open) return;
        if (a.code === undefined || a.code !== 200) {
          open = false;
          following.delete(id);
          return sink.start(a.code === undefined ? { error: a.error } : { code: a.code, body: a.body });
        }
        sink.start({ code: a.code, body: a.body });
        following.get(id)!.started = true;
        drain(id);
      });
      return {
        stop() {
          if (!open) return;
          open = false;
          following.delete(id);
          ctx.send(`kubelet-${target.nodeName}`, { type: 'kubelet.containerLogs.stop', id } satisfies ContainerLogsStop);
        },
      };
    },
    exec(target, request, done) {
      call(target, { type: 'kubelet.exec', id: ++lastId, ...request }, (why) => why, done);
    },
    answer(msg) {
      if (msg.type === 'kubelet.containerLogs.chunk' || msg.type === 'kubelet.containerLogs.end') {
        const stream = following.get(msg.id);
        if (!stream || msg.seq < stream.next) return;
        stream.held.set(msg.seq, msg);
        return drain(msg.id);
      }
      const waiting = pending.get(msg.id);
      if (!waiting) return;
      pending.delete(msg.id);
      waiting.timer.cancel();
      const { type: _type, id: _id, ...answer } = msg;
      waiting.done(answer);
    },
  };
}

/** LogLocation's URL: https://<address>:<port>/containerLogs/<ns>/<pod>/<container>?<sorted params>. */
function kubeletLogURL(target: { address: string; port: number }, r: { namespace: string; pod: string; container: string; options: PodLogOptions }): string {
  const o = r.options;
  const params: [string, string][] = [];
  if (o.follow) params.push(['follow', 'true']);
  if (o.limitBytes !== undefined) params.push(['limitBytes', String(o.limitBytes)]);
  if (o.previous) params.push(['previous', 'true']);
  if (o.sinceSeconds !== undefined) params.push(['sinceSeconds', String(o.sinceSeconds)]);
  if (o.sinceTime !== undefined) params.push(['sinceTime', o.sinceTime]);
  if (o.tailLines !== undefined) params.push(['tailLines', String(o.tailLines)]);
  if (o.timestamps) params.push(['timestamps', 'true']);
  const query = params.map(([k, v]) => `${k}=${escapeComponent(v)}`).join('&');
  return `https://${target.address}:${target.port}/containerLogs/${r.namespace}/${r.pod}/${r.container}${query ? `?${query}` : ''}`;
}
