// pods/log against a fake kubelet: where the request goes, and how each answer comes back.
import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../../api/index.ts';
import { createHarness } from '../testing/harness.ts';
import type { KubeletClient } from './log.ts';

type Call = Parameters<KubeletClient['containerLogs']>;

function setup(answer: (call: Call) => { code: number; body: string } | { error: string }) {
  const calls: Call[] = [];
  const kubeletClient: KubeletClient = {
    containerLogs: (target, request, done) => {
      calls.push([target, request, done]);
      done(answer([target, request, done]));
    },
    exec: () => {
      throw new Error('pods/log makes no exec call');
    },
    followLogs: () => {
      throw new Error('a plain pods/log request does not follow');
    },
  };
  const h = createHarness({ kubeletClient });
  const node = { metadata: { name: 'worker-1' }, status: { addresses: [{ type: 'Hostname', address: 'worker-1' }, { type: 'InternalIP', address: '192.168.49.10' }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } } };
  expect(h.admin({ verb: 'create', resource: 'nodes', body: node as KubeObject }).code).toBe(201);
  const create = (name: string, containers: string[], nodeName?: string): void => {
    const spec = { containers: containers.map((c) => ({ name: c, image: 'nginx:1.27' })), ...(nodeName ? { nodeName } : {}) };
    expect(h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name }, spec } as KubeObject }).code).toBe(201);
  };
  const logs = (name: string, query: Record<string, unknown> = {}) =>
    h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name, subresource: 'log', query });
  return { h, calls, create, logs };
}

const status = (b: unknown): Status => b as Status;

describe('pods/log', () => {
  it("asks the pod's node's kubelet at its InternalIP and port, and returns its text", () => {
    const { calls, create, logs } = setup(() => ({ code: 200, body: 'hello\n' }));
    create('web', ['nginx'], 'worker-1');
    const res = logs('web', { tailLines: 5, timestamps: true });
    expect(res).toMatchObject({ code: 200, body: 'hello\n' });
    expect(calls[0]![0]).toEqual({ nodeName: 'worker-1', address: '192.168.49.10', port: 10250 });
    expect(calls[0]![1]).toEqual({ namespace: 'default', pod: 'web', container: 'nginx', options: { tailLines: 5, timestamps: true } });
  });

  it('answers an empty log for a pod not scheduled yet, without asking any kubelet', () => {
    const { calls, create, logs } = setup(() => ({ code: 200, body: 'never' }));
    create('pending', ['nginx']);
    expect(logs('pending')).toMatchObject({ code: 200, body: '' });
    expect(calls).toEqual([]);
  });

  it('picks the only container, and asks for one when there are several or the name is wrong', () => {
    const { create, logs } = setup(() => ({ code: 200, body: '' }));
    create('two', ['a', 'b'], 'worker-1');
    const several = logs('two');
    expect(several.code).toBe(400);
    expect(status(several.body)).toMatchObject({ reason: 'BadRequest', message: 'a container name must be specified for pod two, choose one of: [a b]' });
    expect(status(logs('two', { container: 'c' }).body).message).toBe('container c is not valid for pod two');
    expect(logs('two', { container: 'b' }).code).toBe(200);
    expect(status(logs('missing').body).message).toBe('pods "missing" not found');
  });

  it("turns the kubelet's 400 into BadRequest with its text, and a dial failure into a 500 without a reason", () => {
    const waiting = setup(() => ({ code: 400, body: 'container "nginx" in pod "web" is waiting to start: ContainerCreating' }));
    waiting.create('web', ['nginx'], 'worker-1');
    expect(waiting.logs('web')).toMatchObject({ code: 400, body: { reason: 'BadRequest', message: 'container "nginx" in pod "web" is waiting to start: ContainerCreating' } });
    const dead = setup(() => ({ error: 'Get "https://192.168.49.10:10250/containerLogs/default/web/nginx": dial tcp 192.168.49.10:10250: i/o timeout' }));
    dead.create('web', ['nginx'], 'worker-1');
    const res = dead.logs('web');
    expect(res.code).toBe(500);
    expect(status(res.body).reason).toBeUndefined();
    expect(status(res.body).message).toBe('Get "https://192.168.49.10:10250/containerLogs/default/web/nginx": dial tcp 192.168.49.10:10250: i/o timeout');
  });

  it('validates PodLogOptions (ValidatePodLogOptions)', () => {
    const { create, logs } = setup(() => ({ code: 200, body: '' }));
    create('web', ['nginx'], 'worker-1');
    const res = logs('web', { tailLines: -1, limitBytes: 0 });
    expect(res.code).toBe(422);
    expect(status(res.body).message).toBe('PodLogOptions "web" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]');
  });
});
