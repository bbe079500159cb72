import { describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.ts';
import { SharedInformerFactory } from './informer-factory.ts';
import type { RestClient } from './rest-client.ts';

/** A client that answers every list with an empty list and records what was asked. */
function recordingClient() {
  const asked: string[] = [];
  const client = {
    request: (req: { verb: string; group: string; resource: string }, cb: (res: { code: number; body: unknown }) => void) => {
      asked.push(`${req.verb} ${req.group}/${req.resource}`);
      cb({ code: 200, body: { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] } });
    },
    watch: (req: { verb: string; group: string; resource: string }) => {
      asked.push(`${req.verb} ${req.group}/${req.resource}`);
      return { stop: () => asked.push(`stop ${req.group}/${req.resource}`) };
    },
  };
  return { client: client as unknown as RestClient, asked };
}

describe('SharedInformerFactory (informers/factory.go)', () => {
  it('hands every caller the same informer for a resource, and separate ones for separate resources', () => {
    const kernel = createKernel({ seed: 1 });
    const { client } = recordingClient();
    const factory = new SharedInformerFactory(kernel, client);
    const pods = factory.informerFor('', 'pods');
    expect(factory.informerFor('', 'pods')).toBe(pods);
    expect(factory.informerFor('apps', 'deployments')).not.toBe(pods);
    expect(factory.informerFor('', 'deployments')).not.toBe(factory.informerFor('apps', 'deployments'));
    expect(factory.resources()).toEqual(['/pods', 'apps/deployments', '/deployments']);
  });

  it('lists and watches nothing before start; start opens one list and one watch per resource', () => {
    const kernel = createKernel({ seed: 1 });
    const { client, asked } = recordingClient();
    const factory = new SharedInformerFactory(kernel, client);
    factory.informerFor('', 'nodes');
    factory.informerFor('', 'nodes');
    factory.informerFor('coordination.k8s.io', 'leases');
    kernel.runFor(1_000);
    expect(asked).toEqual([]);
    factory.start();
    kernel.runFor(1_000);
    expect(asked.sort()).toEqual(['list /nodes', 'list coordination.k8s.io/leases', 'watch /nodes', 'watch coordination.k8s.io/leases']);
    expect(factory.informerFor('', 'nodes').hasSynced).toBe(true);
  });

  it('starts an informer asked for after start at once, and stops them all', () => {
    const kernel = createKernel({ seed: 1 });
    const { client, asked } = recordingClient();
    const factory = new SharedInformerFactory(kernel, client);
    factory.start();
    const late = factory.informerFor('', 'services');
    kernel.runFor(1_000);
    expect(late.hasSynced).toBe(true);
    expect(asked).toEqual(['list /services', 'watch /services']);
    factory.stop();
    expect(asked).toContain('stop /services');
  });
});
