// POST pods/{name}/exec: the API server finds where the container runs and hands the session to
// that node's kubelet, as pkg/registry/core/pod/rest/subresources.go (ExecREST.Connect) and
// pod/strategy.go (ExecLocation, streamLocation) do: the named container must be the pod's (or the
// pod's only one when none is named), the pod must be on a node, and the kubelet's /exec answers.
// A kubelet that refuses the upgrade comes back as its plain-text body (the client says "unable to
// upgrade connection: ..."); a kubelet the server cannot dial is "error dialing backend: ...".
import { newBadRequest, newNotFound, type ExecStreams, type Pod, type Status } from '../../api/index.ts';
import type { RequestQuery } from '../request.ts';
import { kubeletTarget, type KubeletClient } from './log.ts';
import { groupResource, keyOf, type Scope } from './scope.ts';

export function handleExec(s: Scope, kubelet: KubeletClient | undefined): void {
  const name = s.req.name ?? '';
  const query: RequestQuery = s.req.query ?? {};
  const command = query.command ?? [];
  s.store.get(keyOf(s, s.req.namespace, name), (r) => {
    if (!r.ok) return s.fail(r.status);
    const pod = r.value?.object as Pod | undefined;
    if (!pod) return s.fail(newNotFound(groupResource(s), name));
    const container = containerOf(pod, typeof query.container === 'string' ? query.container : '');
    if (typeof container !== 'string') return s.fail(container);
    const nodeName = pod.spec.nodeName ?? '';
    if (nodeName === '') return s.fail(newBadRequest(`pod ${name} does not have a host assigned`));
    const target = kubeletTarget(s, nodeName);
    if ('code' in target) return s.fail(target);
    if (!kubelet) return s.fail(dialError(`no route to the kubelet of node ${nodeName}`));
    s.stage('Storage', `kubelet ${nodeName} exec ${pod.metadata.namespace ?? ''}/${name}/${container}: ${command.join(' ')}`);
    // the client's stdin stream (kubectl exec -i), which this simulation carries as the request body
    const stdin = query.stdin === true || query.stdin === 'true' ? (s.req.body as { stdin?: unknown } | undefined)?.stdin : undefined;
    const request = { namespace: pod.metadata.namespace ?? '', pod: name, container, command, ...(typeof stdin === 'string' ? { stdin } : {}) };
    kubelet.exec(target, request, (answer) => {
      if (answer.code === undefined) return s.fail(dialError(answer.error));
      if (answer.code !== 101) return s.respond(answer.code, answer.body);
      s.respond(200, streamsOf(command, answer));
    });
  });
}

/** The error stream's Status as the kubelet's streaming server writes it (remotecommand/httpstream.go). */
function streamsOf(command: readonly string[], a: { stdout?: string; stderr?: string; exitCode?: number; error?: string }): ExecStreams {
  const base = { kind: 'ExecStreams', apiVersion: 'v1', metadata: {}, stdout: a.stdout ?? '', stderr: a.stderr ?? '' } as const;
  if (a.error !== undefined) return { ...base, status: { status: 'Failure', reason: 'InternalError', message: `Internal error occurred: ${a.error}` } };
  if (!a.exitCode) return { ...base, status: { status: 'Success' } };
  return {
    ...base,
    status: {
      status: 'Failure', reason: 'NonZeroExitCode', message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${a.exitCode}`,
      details: { causes: [{ reason: 'ExitCode', message: String(a.exitCode) }] },
    },
  };
}

/** streamLocation: the named container (any kind of the pod's), or the only one. */
function containerOf(pod: Pod, asked: string): string | Status {
  const podName = pod.metadata.name ?? '';
  const names = (cs: { name: string }[] | undefined) => (cs ?? []).map((c) => c.name).join(' ');
  if (asked === '') {
    if (pod.spec.containers.length === 1) return pod.spec.containers[0]!.name;
    if (pod.spec.containers.length === 0) return newBadRequest(`a container name must be specified for pod ${podName}`);
    let message = `a container name must be specified for pod ${podName}, choose one of: [${names(pod.spec.containers)}]`;
    if ((pod.spec.initContainers ?? []).length > 0) message += ` or one of the init containers: [${names(pod.spec.initContainers)}]`;
    return newBadRequest(message);
  }
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => c.name);
  return all.includes(asked) ? asked : newBadRequest(`container ${asked} is not valid for pod ${podName}`);
}

/** The proxy's dial failure (UpgradeAwareHandler): a plain error, so a 500 Status with no reason. */
function dialError(message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `error dialing backend: ${message}`, code: 500 } as Status;
}
