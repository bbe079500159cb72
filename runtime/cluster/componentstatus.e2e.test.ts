// kubectl get componentstatuses: the API server checks its machine's controller manager and
// scheduler and its etcd on each request (deprecated since v1.19, still served).
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

const WARNING = 'Warning: v1 ComponentStatus is deprecated in v1.19+\n';

describe('componentstatuses', { timeout: 60_000 }, () => {
  it('reports the control plane healthy, then the scheduler that stopped, and refuses writes', async () => {
    const c = createCluster({ seed: 2, topology: 'single-node' });
    expect(await c.kubectl('get cs')).toEqual({
      stdout: 'NAME                 STATUS    MESSAGE   ERROR\ncontroller-manager   Healthy   ok        \nscheduler            Healthy   ok        \netcd-0               Healthy   ok        \n',
      stderr: WARNING, exitCode: 0,
    });
    await c.faults.stopComponent('kube-scheduler-cp-1');
    expect((await c.kubectl('get componentstatus scheduler')).stdout).toBe(
      'NAME        STATUS      MESSAGE   ERROR\nscheduler   Unhealthy             Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused\n',
    );
    expect((await c.kubectl('delete cs scheduler')).stderr).toBe(`${WARNING}Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n`);
    expect((await c.kubectl('get cs nope')).stderr).toBe(`${WARNING}Error from server (NotFound): componentstatuses "nope" not found\n`);
  });
});
