// The kubelet's /exec endpoint (pkg/kubelet/server/server.go getExec, then kubelet_pods.go GetExec
// and findContainer): the pod from the kubelet's pod manager, its running container by name, then
// the runtime runs the command (CRI Exec; the streaming session is one request, with any stdin
// whole, and one answer here), seeing what every process of the container sees
// (container-env.ts).
import {
  isContainerExecRequest,
  type ContainerExecRequest, type ContainerExecResponse, type Pod, type PodStatus,
} from '../api/index.ts';
import type { Lister } from '../client/index.ts';
import type { ContainerRuntime, ExecResult } from '../cri/index.ts';
import type { ProcessContext } from '../kernel/index.ts';
import { containerEnvironment, type ContainerEnvironmentConfig } from './container-env.ts';

export interface ExecServerDeps {
  pods: Lister<Pod>;
  statusOf(namespace: string, name: string): PodStatus | undefined;
  cri: ContainerRuntime;
  /**
   * A static pod's container (its process runs outside the CRI here): runs argv in its image and
   * calls `done` (at once, or when a program that talks to something else has its answer); false
   * for a pod that is not one of this node's static pods.
   */
  staticExec?(pod: Pod, container: string, argv: readonly string[], done: (result: ExecResult) => void, stdin?: string): boolean;
  /** What the kubelet sets up for every container's processes. */
  environment: ContainerEnvironmentConfig;
}

/** The kubelet server's exec route: answers the API server's call once the command is done; false for other messages. */
export function execRoute(ctx: ProcessContext, d: ExecServerDeps): (msg: unknown, from: string) => boolean {
  return (msg, from) => {
    if (!isContainerExecRequest(msg)) return false;
    execInPod(d, msg, (answer) => {
      if (!ctx.isLive()) return; // the kubelet went down while the command ran: the stream broke
      const reply = { type: 'kubelet.exec.response', id: msg.id, ...answer.response } satisfies ContainerExecResponse;
      if (answer.durationMs > 0) ctx.setTimer(answer.durationMs, () => ctx.send(from, reply));
      else ctx.send(from, reply);
    });
    return true;
  };
}

type ExecAnswer = { response: Omit<ContainerExecResponse, 'type' | 'id'>; durationMs: number };

export function execInPod(d: ExecServerDeps, req: ContainerExecRequest, answer: (a: ExecAnswer) => void): void {
  const fail = (code: number, body: string): void => answer({ response: { code, body }, durationMs: 0 });
  const pod = d.pods.get(req.namespace, req.pod);
  if (!pod) return fail(404, 'pod does not exist');
  if (d.staticExec?.(pod, req.container, req.command, (result) => answer(answerOf(result)), req.stdin)) return;
  // findContainer: the pod's running container of that name, as the runtime lists it
  const status = (d.statusOf(req.namespace, req.pod) ?? pod.status)?.containerStatuses?.find((s) => s.name === req.container);
  const id = runtimeIdOf(status?.state?.running ? status.containerID : undefined);
  if (id === '' || d.cri.containerStatus(id)?.state !== 'running') return fail(500, `container not found ("${req.container}")`);
  const env = containerEnvironment(d.environment, pod, req.container, pod.status?.podIP);
  answer(answerOf(d.cri.exec(id, req.command, env, req.stdin)));
}

/** The streaming server answers the upgrade (101), then reports on the error stream. */
function answerOf(result: ExecResult): ExecAnswer {
  if ('startError' in result) return { response: { code: 101, body: '', error: `error executing command in container: ${result.startError}` }, durationMs: 0 };
  return { response: { code: 101, body: '', stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }, durationMs: result.durationMs };
}

/** "containerd://<id>" -> "<id>" (kubecontainer.ParseContainerID). */
function runtimeIdOf(containerID: string | undefined): string {
  const sep = (containerID ?? '').indexOf('://');
  return sep < 0 ? (containerID ?? '') : containerID!.slice(sep + 3);
}
