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

export function isContainerLogsRequest(msg: unknown): msg is ContainerLogsRequest {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.containerLogs';
}

export function isContainerLogsResponse(msg: unknown): msg is ContainerLogsResponse {
  return (msg as { type?: unknown } | null)?.type === 'kubelet.containerLogs.response';
}
