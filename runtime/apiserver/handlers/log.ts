// GET pods/{name}/log: the one request the API server answers by calling a kubelet, as
// pkg/registry/core/pod/rest/log.go (LogREST.Get) and pod/strategy.go (LogLocation) do: check the
// PodLogOptions, find the pod and the container (the only one, or the one asked for), find the
// node's address and kubelet port, and stream what the kubelet's /containerLogs answers. A
// kubelet error comes back as the API's error (genericrest's HTTP response checker: a 400 becomes
// BadRequest with the kubelet's text); a kubelet that never answers is a dial timeout.
import {
  KUBELET_PORT, newBadRequest, newInternalError, newInvalid, newNotFound, type FieldError, type KubeObject, type LogChunk, type Node, type Pod,
  type PodLogOptions, type Status,
} from '../../api/index.ts';
import type { ApiWatchHandlers, RequestQuery } from '../request.ts';
import { storagePrefix } from '../resources.ts';
import { objectKey } from '../storage/keys.ts';
import { groupResource, keyOf, type Scope } from './scope.ts';

/** What the API server needs to reach kubelets (server.go wires it to the network). */
export interface KubeletClient {
  /**
   * GET https://{address}:{port}/containerLogs/{namespace}/{pod}/{container}: the kubelet's
   * status code and body, or the transport's error text when it does not answer.
   */
  containerLogs(
    target: { nodeName: string; address: string; port: number },
    request: { namespace: string; pod: string; container: string; options: PodLogOptions },
    done: (answer: { code: number; body: string } | { error: string }) => void,
  ): void;
  /**
   * containerLogs with follow: `start` gets the response (what is there, or the error); after a 200,
   * `chunk` gets each line the container writes and `end` comes when it stops. Returns how to hang up.
   */
  followLogs(
    target: { nodeName: string; address: string; port: number },
    request: { namespace: string; pod: string; container: string; options: PodLogOptions },
    sink: { start(answer: { code: number; body: string } | { error: string }): void; chunk(text: string): void; end(): void },
  ): { stop(): void };
  /**
   * POST https://{address}:{port}/exec/{namespace}/{pod}/{container}?command=...: the upgrade's
   * status (101 when the session ran, with its streams), or the dial's error text.
   */
  exec(
    target: { nodeName: string; address: string; port: number },
    request: { namespace: string; pod: string; container: string; command: string[]; stdin?: string },
    done: (answer: { code: number; body: string; stdout?: string; stderr?: string; exitCode?: number; error?: string } | { error: string; code?: undefined }) => void,
  ): void;
}

/** --kubelet-preferred-address-types as kubeadm sets it. */
const ADDRESS_TYPES = ['InternalIP', 'ExternalIP', 'Hostname'];

/** Where a pod's log is: the kubelet target and its request, nothing (an unscheduled pod's empty log), or why not. */
type LogLocation =
  | { target: { nodeName: string; address: string; port: number }; request: { namespace: string; pod: string; container: string; options: PodLogOptions } }
  | { empty: true }
  | { status: Status };

/** LogLocation: the options checked, the pod and container found, the node's kubelet address. */
function locateLog(s: Scope, kubelet: KubeletClient | undefined, then: (location: LogLocation) => void): void {
  const name = s.req.name ?? '';
  const options = logOptionsOf(s.req.query ?? {});
  const invalid = validateLogOptions(options);
  if (invalid.length > 0) return then({ status: newInvalid({ group: '', kind: 'PodLogOptions' }, name, invalid) });
  s.store.get(keyOf(s, s.req.namespace, name), (r) => {
    if (!r.ok) return then({ status: r.status });
    const pod = r.value?.object as Pod | undefined;
    if (!pod) return then({ status: newNotFound(groupResource(s), name) });
    const container = containerOf(pod, options.container);
    if (typeof container !== 'string') return then({ status: container });
    const nodeName = pod.spec.nodeName ?? '';
    // not scheduled yet: no location, and an empty log (LocationStreamer with a nil location)
    if (nodeName === '') return then({ empty: true });
    const target = kubeletTarget(s, nodeName);
    if ('code' in target) return then({ status: target });
    if (!kubelet) return then({ status: transportError(`no route to the kubelet of node ${nodeName}`) });
    s.stage('Storage', `kubelet ${nodeName} containerLogs ${pod.metadata.namespace ?? ''}/${name}/${container}`);
    then({ target, request: { namespace: pod.metadata.namespace ?? '', pod: name, container, options } });
  });
}

export function handleLog(s: Scope, kubelet: KubeletClient | undefined): void {
  locateLog(s, kubelet, (location) => {
    if ('status' in location) return s.fail(location.status);
    if ('empty' in location) return s.respond(200, '');
    kubelet!.containerLogs(location.target, location.request, (answer) => {
      if ('error' in answer) return s.fail(transportError(answer.error));
      if (answer.code >= 200 && answer.code <= 206) return s.respond(200, answer.body);
      s.fail(kubeletError(answer.code, answer.body, location.request.pod));
    });
  });
}

/**
 * GET pods/{name}/log?follow=true: the kubelet's answer streamed as it comes (the chunked body of
 * LogREST's LocationStreamer), each piece a LogChunk on the stream; the stream closes when the
 * container stops, or with the error that kept it from starting. Returns how to hang up.
 */
export function followLog(s: Scope, kubelet: KubeletClient | undefined, handlers: ApiWatchHandlers): { stop(): void } {
  let stopped = false;
  let hangUp: (() => void) | undefined;
  const chunk = (text: string): void => {
    // the stream carries objects; a log chunk travels as one (the simulation's framing of a chunked body)
    const object: LogChunk = { kind: 'LogChunk', apiVersion: 'v1', metadata: {}, text };
    if (!stopped && text !== '') handlers.onEvent({ type: 'ADDED', object: object as unknown as KubeObject });
  };
  const close = (status?: Status): void => {
    if (stopped) return;
    stopped = true;
    handlers.onClose(status);
  };
  locateLog(s, kubelet, (location) => {
    if (stopped) return;
    if ('status' in location) return close(location.status);
    if ('empty' in location) return close();
    hangUp = kubelet!.followLogs(location.target, location.request, {
      start: (answer) => {
        if ('error' in answer) return close(transportError(answer.error));
        if (answer.code < 200 || answer.code > 206) return close(kubeletError(answer.code, answer.body, location.request.pod));
        chunk(answer.body);
      },
      chunk,
      end: () => close(),
    }).stop;
  });
  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      hangUp?.();
    },
  };
}

/** connInfo.GetConnectionInfo: the node's kubelet address (by the preferred address types) and port. */
export function kubeletTarget(s: Scope, nodeName: string): { nodeName: string; address: string; port: number } | Status {
  const node = s.cacheFor('', 'nodes')?.get(objectKey(storagePrefix({ group: '', resource: 'nodes' }), undefined, nodeName)) as Node | undefined;
  if (!node) return newNotFound({ group: '', resource: 'nodes' }, nodeName);
  const address = ADDRESS_TYPES.map((t) => node.status?.addresses?.find((a) => a.type === t)?.address).find((a) => a) ?? nodeName;
  return { nodeName, address, port: node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? KUBELET_PORT };
}

/** The query's PodLogOptions (numbers and booleans as the query parameter codec reads them). */
function logOptionsOf(query: RequestQuery): PodLogOptions {
  type NumKey = 'sinceSeconds' | 'tailLines' | 'limitBytes';
  type BoolKey = 'follow' | 'previous' | 'timestamps';
  const num = (k: NumKey): number | undefined => (query[k] === undefined || query[k] === '' ? undefined : Number(query[k]));
  const bool = (k: BoolKey): boolean | undefined => (query[k] === undefined ? undefined : query[k] === true || query[k] === 'true');
  const out: PodLogOptions = {};
  if (typeof query.container === 'string' && query.container !== '') out.container = query.container;
  for (const k of ['follow', 'previous', 'timestamps'] as const) {
    const v = bool(k);
    if (v !== undefined) out[k] = v;
  }
  for (const k of ['sinceSeconds', 'tailLines', 'limitBytes'] as const) {
    const v = num(k);
    if (v !== undefined) out[k] = v;
  }
  if (typeof query.sinceTime === 'string' && query.sinceTime !== '') out.sinceTime = query.sinceTime;
  return out;
}

/** validation.ValidatePodLogOptions. */
function validateLogOptions(o: PodLogOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0) errs.push({ type: 'FieldValueInvalid', field: 'tailLines', badValue: o.tailLines, detail: 'must be greater than or equal to 0' });
  if (o.limitBytes !== undefined && o.limitBytes < 1) errs.push({ type: 'FieldValueInvalid', field: 'limitBytes', badValue: o.limitBytes, detail: 'must be greater than 0' });
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) {
    errs.push({ type: 'FieldValueForbidden', field: '', badValue: '', detail: 'at most one of `sinceTime` or `sinceSeconds` may be specified' });
  } else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1) {
    errs.push({ type: 'FieldValueInvalid', field: 'sinceSeconds', badValue: o.sinceSeconds, detail: 'must be greater than 0' });
  }
  return errs;
}

/** strategy.go validateContainer: the named container, or the pod's only one. */
function containerOf(pod: Pod, asked: string | undefined): string | Status {
  const podName = pod.metadata.name ?? '';
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => c.name);
  if (asked === undefined) {
    if (pod.spec.containers.length === 1) return pod.spec.containers[0]!.name;
    if (pod.spec.containers.length === 0) return newBadRequest(`pod ${podName} does not have a container`);
    return newBadRequest(`a container name must be specified for pod ${podName}, choose one of: [${all.join(' ')}]`);
  }
  return all.includes(asked) ? asked : newBadRequest(`container ${asked} is not valid for pod ${podName}`);
}

/** genericrest.GenericHttpResponseChecker: the kubelet's error status as the API's error. */
function kubeletError(code: number, body: string, name: string): Status {
  if (code === 400) return newBadRequest(body);
  if (code === 500) return newInternalError(body);
  if (code === 404) return status(404, 'NotFound', `the server could not find the requested resource ( pods/log ${name})`);
  return status(code, '', `the server responded with the status code ${code} but did not return more information ( pods/log ${name})`);
}

/** A plain Go error from the transport: ErrorToAPIStatus makes it a 500 with no reason. */
function transportError(message: string): Status {
  return status(500, '', message);
}

function status(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), code } as Status;
}

