import { describe, expect, it } from 'vitest';
import type { KubeObject, Node, Pod } from '../../api/index.ts';
import { SharedInformer, type ListerWatcher, type RestClient, type RestRequest, type RestResponse } from '../../client/index.ts';
import { createKernel, type Kernel } from '../../kernel/index.ts';
import { PodGCController, QUARANTINE_MS, missingNodes, terminatedPodsToDelete } from './controller.ts';

const pod = (name: string, o: { node?: string; phase?: string; created?: string; deleting?: boolean } = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'default', creationTimestamp: o.created ?? '2026-01-01T00:00:00Z', ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(o.node ? { nodeName: o.node } : {}) },
  status: { phase: (o.phase ?? 'Running') as 'Running' },
});

describe('missingNodes', () => {
  it.each([
    { name: 'every node exists', pods: [pod('a', { node: 'n1' })], nodes: ['n1'], want: [] },
    { name: 'unscheduled pods do not count', pods: [pod('a')], nodes: [], want: [] },
    { name: 'a gone node, once, sorted', pods: [pod('a', { node: 'n3' }), pod('b', { node: 'n2' }), pod('c', { node: 'n3' })], nodes: ['n1'], want: ['n2', 'n3'] },
  ])('$name', ({ pods, nodes, want }) => {
    expect(missingNodes(pods, new Set(nodes))).toEqual(want);
  });
});

describe('terminatedPodsToDelete', () => {
  const done = [
    pod('new', { phase: 'Succeeded', created: '2026-01-01T00:03:00Z' }),
    pod('old', { phase: 'Failed', created: '2026-01-01T00:01:00Z' }),
    pod('mid', { phase: 'Succeeded', created: '2026-01-01T00:02:00Z' }),
    pod('running', { created: '2026-01-01T00:00:00Z' }),
  ];
  it.each([
    { threshold: 3, want: [] },
    { threshold: 2, want: ['old'] },
    { threshold: 1, want: ['old', 'mid'] },
    { threshold: 0, want: ['old', 'mid', 'new'] },
  ])('threshold $threshold deletes $want (running pods never count)', ({ threshold, want }) => {
    expect(terminatedPodsToDelete(done, threshold).map((p) => p.metadata.name)).toEqual(want);
  });
});

/** Informers over a fixed list, and a client that answers GET node with 404 unless the node is listed. */
function setup(kernel: Kernel, pods: Pod[], nodes: string[], apiNodes: string[] = nodes) {
  const lw = <T extends KubeObject>(items: T[]): ListerWatcher<T> => ({
    list: (_o, done) => kernel.setTimer(1, () => done({ ok: true, value: { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '1' }, items } })),
    watch: () => ({ stop: () => undefined }),
  });
  const requests: RestRequest[] = [];
  const client = {
    request(r: RestRequest, cb: (res: RestResponse) => void) {
      requests.push(r);
      const code = r.verb === 'get' ? (apiNodes.includes(r.name ?? '') ? 200 : 404) : 200;
      kernel.setTimer(1, () => cb({ code, body: {} }));
    },
  } as unknown as RestClient;
  const podInformer = new SharedInformer<Pod>(kernel, lw(pods));
  const nodeInformer = new SharedInformer<Node>(kernel, lw(nodes.map((n) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }) as Node)));
  podInformer.start();
  nodeInformer.start();
  const gc = new PodGCController({ clock: kernel, client, pods: podInformer, nodes: nodeInformer });
  return { gc, requests };
}

describe('PodGCController', () => {
  it('force-deletes the pods of a vanished node after the quarantine, marked DisruptionTarget, and unscheduled terminating pods at once', () => {
    const kernel = createKernel({ seed: 1 });
    const { gc, requests } = setup(kernel, [pod('orphan', { node: 'gone' }), pod('fine', { node: 'n1' }), pod('stuck', { deleting: true })], ['n1']);
    gc.start();
    kernel.runFor(20_500); // first round: the node is quarantined; the unscheduled terminating pod goes
    expect(requests.map((r) => `${r.verb} ${r.name ?? ''}`)).toEqual(['delete stuck']);
    expect(requests[0]?.query).toEqual({ gracePeriodSeconds: 0 });
    kernel.runFor(QUARANTINE_MS);
    const orphan = requests.filter((r) => r.name === 'orphan' || r.name === 'gone');
    expect(orphan.map((r) => `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''} ${r.name ?? ''}`)).toEqual([
      'get nodes gone', 'patch pods/status orphan', 'delete pods orphan',
    ]);
    expect(orphan[1]?.body).toMatchObject({ status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }] } });
    expect(requests.some((r) => r.name === 'fine')).toBe(false);
  });

  it('a node the cache has not seen yet but the API server has is left alone', () => {
    const kernel = createKernel({ seed: 2 });
    // the informer lists no nodes, but the GET finds "late": the cache was only behind
    const { gc, requests } = setup(kernel, [pod('a', { node: 'late' })], [], ['late']);
    gc.start();
    kernel.runFor(20_500 + QUARANTINE_MS);
    expect(requests.map((r) => `${r.verb} ${r.name ?? ''}`)).toEqual(['get late']);
  });
});
