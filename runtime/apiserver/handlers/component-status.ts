// GET /api/v1/componentstatuses[/<name>]: the health of the control plane around this API server,
// checked on every request and stored nowhere (deprecated since v1.19, still served).
// mirrors pkg/registry/core/componentstatus/rest.go (List, Get, getComponentStatus) and
// validator.go (HttpServer.DoServerCheck, EtcdServer.DoServerCheck): the controller manager and
// the scheduler at their local /healthz, and each etcd server this API server uses. Upstream checks
// them in parallel and lists them as they answer; here they are listed in that usual order:
// controller-manager, scheduler, etcd-0.
import { newNotFound, type ComponentStatus, type Status } from '../../api/index.ts';

/** One server to validate (GetServersToValidate): healthy with a message, or the error. */
export interface ComponentCheck {
  name: string;
  check(done: (result: { healthy: true; message: string } | { healthy: false; error: string }) => void): void;
}

export function componentStatusOf(name: string, r: Parameters<Parameters<ComponentCheck['check']>[0]>[0]): ComponentStatus {
  const condition: NonNullable<ComponentStatus['conditions']>[number] = r.healthy
    ? { type: 'Healthy', status: 'True', message: r.message }
    : { type: 'Healthy', status: 'False', error: r.error };
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] };
}

/** Runs every check (in order) and answers the List, or the one named. */
export function serveComponentStatuses(
  checks: readonly ComponentCheck[],
  name: string | undefined,
  respond: (code: number, body: unknown) => void,
): void {
  const wanted = name === undefined ? checks : checks.filter((c) => c.name === name);
  if (name !== undefined && wanted.length === 0) {
    return respond(404, newNotFound({ group: '', resource: 'componentstatuses' }, name) satisfies Status);
  }
  const items: ComponentStatus[] = [];
  const next = (i: number): void => {
    if (i === wanted.length) {
      if (name !== undefined) return respond(200, items[0]);
      return respond(200, { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items: items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) });
    }
    const c = wanted[i]!;
    c.check((r) => {
      items.push(componentStatusOf(c.name, r));
      next(i + 1);
    });
  };
  next(0);
}
