// The kubelet's own HTTPS API on port 10250, as far as the API server uses it here: GET
// /containerLogs/{namespace}/{pod}/{container} (pkg/kubelet/server/server.go getContainerLogs),
// carried as one request and one response message on the simulated network. The API server is its
// only caller (pods/log); nothing else talks to a kubelet directly.

/** core/v1 PodLogOptions, the query of pods/{name}/log (and of the kubelet call it becomes). */
export interface PodLogOptions {
  container?: string;
  follow?: boolean;
  previous?: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  timestamps?: boolean;
  tailLines?: number;
  limitBytes?: number;
}

/** The kubelet's port (KubeletConfiguration port; status.daemonEndpoints.kubeletEndpoint.Port). */
export const KUBELET_PORT = 10250;

export interface ContainerLogsRequest {
  type: 'kubelet.containerLogs';
  id: number;
  namespace: string;
  pod: string;
  container: string;
  options: PodLogOptions;
}

/** The kubelet's HTTP answer: 200 with the log text, or an error status with its text. */
export interface ContainerLogsResponse {
  type: 'kubelet.containerLogs.response';
  id: number;
  code: number;
  body: string;
}

/**
 * A followed log (options.follow): after the 200 response with what is there, each line the
 * container writes comes as a chunk, and `end` when the container stops (or the kubelet gives up).
 */
export interface ContainerLogsChunk {
  type: 'kubelet.containerLogs.chunk';
  id: number;
  /** 1, 2, ... in the order written (the response is 0), so the receiver can keep TCP's order. */
  seq: number;
  text: string;
}

export interface ContainerLogsEnd {
  type: 'kubelet.containerLogs.end';
  id: number;
  seq: number;
}

/** The API server's client went away: the kubelet stops following. */
export interface ContainerLogsStop {
  type: 'kubelet.containerLogs.stop';
  id: number;
}

/** What one chunk of a followed log looks like on the API server's stream (a chunked HTTP body there). */
export interface LogChunk {
  kind: 'LogChunk';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  text: string;
}

export function isLogChunk(obj: unknown): obj is LogChunk {
  return (obj as { kind?: unknown } | null)?.kind === 'LogChunk';
}

export function isContainerLogsRequest(msg: unknown): msg is ContainerLogsRequest {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.containerLogs';
}

export function isContainerLogsResponse(msg: unknown): msg is ContainerLogsResponse {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.containerLogs.response';
}

/** A message on a followed log's connection, kubelet to API server. */
export function isContainerLogsStream(msg: unknown): msg is ContainerLogsChunk | ContainerLogsEnd {
  const type = (msg as { type?: unknown } | null)?.type;
  return type === 'kubelet.containerLogs.chunk' || type === 'kubelet.containerLogs.end';
}

export function isContainerLogsStop(msg: unknown): msg is ContainerLogsStop {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.containerLogs.stop';
}

/** core/v1 PodExecOptions, the query of pods/{name}/exec (stdin and TTY are not simulated: no terminal). */
export interface PodExecOptions {
  container?: string;
  command: string[];
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  tty?: boolean;
}

/** POST /exec/{namespace}/{pod}/{container}?command=...: the kubelet's streaming exec, as one request. */
export interface ContainerExecRequest {
  type: 'kubelet.exec';
  id: number;
  namespace: string;
  pod: string;
  container: string;
  command: string[];
  /** What the client sends on the session's stdin (kubectl exec -i with input), all at once. */
  stdin?: string;
}

/**
 * The kubelet's answer. `code` is the HTTP status of the upgrade (101 when the command ran; an
 * error status with its plain-text body otherwise). A command that ran carries its output and
 * exit code; one the runtime could not start carries the runtime's error (`error`), which the
 * streaming server sends on the error stream as an internal error.
 */
export interface ContainerExecResponse {
  type: 'kubelet.exec.response';
  id: number;
  code: number;
  body: string;
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  error?: string;
}

export function isContainerExecRequest(msg: unknown): msg is ContainerExecRequest {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.exec';
}

export function isContainerExecResponse(msg: unknown): msg is ContainerExecResponse {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.exec.response';
}

/**
 * What an exec session carried once it ended, as the API server relays it to the client: the
 * stdout and stderr streams and the error stream's Status (remotecommand v4: Success; Failure with
 * reason NonZeroExitCode and an ExitCode cause; or an internal error from the runtime).
 */
export interface ExecStreams {
  kind: 'ExecStreams';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  stdout: string;
  stderr: string;
  status: {
    status: 'Success' | 'Failure';
    message?: string;
    reason?: string;
    details?: { causes: { reason: string; message: string }[] };
  };
}

export function isExecStreams(body: unknown): body is ExecStreams {
  return (body as { kind?: unknown } | null)?.kind === 'ExecStreams';
}
