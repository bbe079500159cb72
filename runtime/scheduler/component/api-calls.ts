// The scheduler's writes to the API server, each a callback-style REST call.
// mirrors pkg/scheduler/framework/plugins/defaultbinder/default_binder.go (Bind: POST
// pods/<name>/binding), pkg/scheduler/util/utils.go (PatchPodStatus), and
// pkg/scheduler/framework/preemption/preemption.go (prepareCandidate: victims are deleted).
// kube-scheduler itself may not update pods (RBAC allows pods/status only); the
// kube-scheduler-simulator writes its result annotations with its own client, as here.
import type { Pod, PodStatus } from '../../api/index.ts';
import type { RestClient, RestResponse } from '../../client/index.ts';

export type Done = (err: string | null) => void;

function errorOf(res: RestResponse): string | null {
  if (res.code >= 200 && res.code < 300) return null;
  const body = res.body as { message?: unknown } | undefined;
  if (res.transportError) return res.transportError;
  return typeof body?.message === 'string' ? body.message : `HTTP ${res.code}`;
}

const where = (pod: Pod) => ({
  group: '',
  resource: 'pods',
  namespace: pod.metadata.namespace ?? 'default',
  name: pod.metadata.name ?? '',
});

/** DefaultBinder.Bind: a v1 Binding of the pod to the node. */
export function bindPod(client: RestClient, pod: Pod, nodeName: string, done: Done): void {
  const body = {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
    target: { kind: 'Node', name: nodeName },
  };
  client.request({ verb: 'create', ...where(pod), subresource: 'binding', body }, (res) =>
    done(errorOf(res)),
  );
}

/** PatchPodStatus: a merge patch of the changed status fields (conditions replace as a list). */
export function patchPodStatus(
  client: RestClient,
  pod: Pod,
  /** A JSON merge patch of the status: null removes a field. */
  status: { [K in keyof PodStatus]?: PodStatus[K] | null },
  done: Done,
): void {
  client.request(
    {
      verb: 'patch',
      ...where(pod),
      subresource: 'status',
      patchType: 'application/merge-patch+json',
      body: { status },
    },
    (res) => done(errorOf(res)),
  );
}

/** The simulator's result store: the cycle's annotations merged into metadata.annotations. */
export function patchAnnotations(
  client: RestClient,
  pod: Pod,
  annotations: Record<string, string>,
  done: Done,
): void {
  client.request(
    {
      verb: 'patch',
      ...where(pod),
      patchType: 'application/merge-patch+json',
      body: { metadata: { annotations } },
    },
    (res) => done(errorOf(res)),
  );
}

/** Deletes a preemption victim (a pod already gone counts as done). */
export function deletePod(
  client: RestClient,
  namespace: string,
  name: string,
  done: Done,
): void {
  client.request({ verb: 'delete', group: '', resource: 'pods', namespace, name }, (res) =>
    done(res.code === 404 ? null : errorOf(res)),
  );
}
