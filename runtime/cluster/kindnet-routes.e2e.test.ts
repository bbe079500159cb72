// kindnet's routes, end to end: kindnetd on every node routes the other nodes' podCIDRs via their
// InternalIPs (network/routes.ts), watching Nodes. The routes are kernel state: they outlive a
// dead kindnet, not a reboot. A worker whose kindnet pod is deleted while the DaemonSet controller
// is down, then rebooted, has none: a request from it to another node's pod is lost, and a Node
// that joins meanwhile gets no route there either. Once the DaemonSet's replacement pod runs, the
// routes are back and the request answers along them.
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

const pod = (name: string, node: string): string => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default }
spec:
  nodeSelector: { kubernetes.io/hostname: ${node} }
  containers: [{ name: ${name}, image: nginx:1.27, ports: [{ containerPort: 80 }] }]
`;

// A Node registered through the API (as a machine joining would register it), with its podCIDR and address.
const JOINER = `apiVersion: v1
kind: Node
metadata: { name: worker-9, labels: { kubernetes.io/hostname: worker-9 } }
spec: { podCIDR: 10.244.20.0/24, podCIDRs: [10.244.20.0/24] }
status: { addresses: [{ type: InternalIP, address: 192.168.49.40 }, { type: Hostname, address: worker-9 }] }
`;

async function waitFor(cluster: Cluster, what: string, done: () => Promise<boolean>, budgetMs = 60_000): Promise<void> {
  const start = cluster.now();
  while (!(await done())) {
    if (cluster.now() - start > budgetMs) throw new Error(`${what} did not happen within ${budgetMs / 1000} s`);
    await cluster.advance(500);
  }
}

const kindnetPodOn = async (cluster: Cluster, node: string): Promise<string> =>
  (await ok(cluster, `get pods -n kube-system -l app=kindnet --field-selector spec.nodeName=${node} -o jsonpath={.items[*].metadata.name}`)).trim();

describe('kindnet routes pod traffic between nodes', { timeout: 180_000 }, () => {
  it('a node without its routes loses packets for other nodes\' pods until the DaemonSet\'s kindnet runs again', async () => {
    const cluster = createCluster({ seed: 4, topology: 'single-node', workers: 2 });
    const { network } = cluster.internals.components;
    const worker2 = cluster.internals.plan.machines.find((m) => m.name === 'worker-2');
    const toWorker2 = `${worker2!.podCIDR} via ${worker2!.internalIP} dev eth0`;
    // after boot every node routes the other two nodes' podCIDRs
    expect(network.ipRoute('worker-1').split('\n')).toEqual(['default via 192.168.49.1 dev eth0', '10.244.0.0/24 via 192.168.49.2 dev eth0', toWorker2]);

    await ok(cluster, 'apply -f -', `${pod('web', 'worker-2')}---\n${pod('client', 'cp-1')}`);
    await waitFor(cluster, 'pods web and client running', async () => (await ok(cluster, 'get pods web client -o jsonpath={.items[*].status.phase}')) === 'Running Running');
    const podIP = await ok(cluster, 'get pod web -o jsonpath={.status.podIP}');
    const clientIP = await ok(cluster, 'get pod client -o jsonpath={.status.podIP}');
    expect(network.sendRequest('worker-1', `${podIP}:80`)).toMatchObject({ ok: true, pod: { name: 'web', node: 'worker-2' }, route: { node: 'worker-1', route: toWorker2 } });
    // pod to pod: along cp-1's route there, back along worker-2's route to cp-1's podCIDR; no masquerading
    expect(network.sendPodRequest(clientIP, `${podIP}:80`)).toMatchObject({ ok: true, pod: { name: 'web' }, clientIP, route: { node: 'cp-1', route: toWorker2 } });

    // no DaemonSet controller, so nothing replaces worker-1's kindnet pod; then worker-1 reboots
    await cluster.faults.stopComponent('kube-controller-manager-cp-1');
    const old = await kindnetPodOn(cluster, 'worker-1');
    await ok(cluster, `delete pod ${old} -n kube-system`);
    expect(network.ipRoute('worker-1')).toContain(toWorker2); // a dead kindnet's routes stay
    await cluster.faults.stopNode('worker-1');
    await cluster.faults.startNode('worker-1');
    await cluster.advance(5000);
    expect(await kindnetPodOn(cluster, 'worker-1')).toBe('');
    expect(network.ipRoute('worker-1')).toBe('default via 192.168.49.1 dev eth0');
    const lost = network.sendRequest('worker-1', `${podIP}:80`);
    expect(lost).toMatchObject({
      ok: false, error: `dial tcp ${podIP}:80: i/o timeout`,
      reason: `worker-1 has no route to ${worker2!.podCIDR} (worker-2's podCIDR): kindnet adds it while it runs on worker-1; the packet left by the default route via 192.168.49.1 and was dropped`,
    });
    // the other direction still has its route (worker-2's kindnet runs); the pod answers from its own node
    expect(network.sendRequest('worker-2', `${podIP}:80`)).toMatchObject({ ok: true });

    // a node joins: the nodes whose kindnet runs route its podCIDR, worker-1 does not
    await ok(cluster, 'create -f -', JOINER);
    await cluster.advance(1000);
    expect(network.ipRoute('worker-2')).toContain('10.244.20.0/24 via 192.168.49.40 dev eth0');
    expect(network.ipRoute('worker-1')).not.toContain('10.244.20.0/24');

    // the DaemonSet controller is back: a new kindnet pod on worker-1 programs every route again
    await cluster.faults.startComponent('kube-controller-manager-cp-1');
    await waitFor(cluster, 'a new kindnet pod on worker-1', async () => {
      const name = await kindnetPodOn(cluster, 'worker-1');
      return name !== '' && name !== old && (await ok(cluster, `get pod ${name} -n kube-system -o jsonpath={.status.phase}`)) === 'Running';
    });
    await cluster.advance(1000);
    expect(network.ipRoute('worker-1').split('\n')).toEqual([
      'default via 192.168.49.1 dev eth0', '10.244.0.0/24 via 192.168.49.2 dev eth0', toWorker2, '10.244.20.0/24 via 192.168.49.40 dev eth0',
    ]);
    expect(network.sendRequest('worker-1', `${podIP}:80`)).toMatchObject({ ok: true, pod: { name: 'web' }, route: { node: 'worker-1', route: toWorker2 } });
    expect(cluster.trace().some((e) => e.kind === 'kindnet.route' && e.actor === 'kindnet-worker-1' && e.detail.includes(toWorker2))).toBe(true);
  });
});
