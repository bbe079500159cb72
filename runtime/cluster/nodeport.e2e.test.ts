// NodePort Services end to end, through cluster.kubectl() and the simulated network: the API
// server gives the Service a node port, kube-proxy on every node opens it (KUBE-NODEPORTS), a
// client outside the cluster reaches a pod through any node's IP, a second Service cannot take
// the same port, and the port is freed when the Service stops being a NodePort. In the managed
// topology a LoadBalancer Service with externalTrafficPolicy Local gets node ports and a
// healthCheckNodePort, and its load balancer IP reaches the pod with the client's own address.
import { describe, expect, it } from 'vitest';
import type { Service } from '../api/index.ts';
import { EXTERNAL_CLIENT_IP } from '../network/index.ts';
import { createCluster, type Cluster } from './cluster.ts';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources:
          requests: { cpu: 100m, memory: 64Mi }
`;

const service = (name: string, type: string, nodePort?: number): string => `apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  type: ${type}
  selector: { app: web }
  ports:
  - name: http
    port: 80
    targetPort: 80${nodePort ? `\n    nodePort: ${nodePort}` : ''}
`;

async function run(cluster: Cluster, args: string, stdin?: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return cluster.kubectl(args, stdin === undefined ? {} : { stdin });
}

async function until(cluster: Cluster, check: () => Promise<boolean>, budgetMs: number): Promise<void> {
  const start = cluster.now();
  while (!(await check())) {
    if (cluster.now() - start > budgetMs) throw new Error(`condition not met within ${budgetMs / 1000} simulated seconds`);
    await cluster.advance(1000);
  }
}

describe('NodePort Services', () => {
  it('get a node port that every node opens; a second Service cannot take it; it is freed when the type changes', { timeout: 120_000 }, async () => {
    const cluster = createCluster({ seed: 21, workers: [{ images: [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }] }, { images: [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }] }] });
    expect((await run(cluster, 'apply -f -', APP)).exitCode).toBe(0);
    expect(await run(cluster, 'apply -f -', service('web', 'NodePort'))).toMatchObject({ stdout: 'service/web created\n', exitCode: 0 });

    // the API server filled in a node port from 30000-32767 (random, above the 86-port static band)
    const svc = JSON.parse((await run(cluster, 'get svc web -o json')).stdout) as Service;
    const nodePort = svc.spec?.ports?.[0]?.nodePort ?? 0;
    expect(nodePort).toBeGreaterThanOrEqual(30086);
    expect(nodePort).toBeLessThanOrEqual(32767);
    expect((await run(cluster, 'get svc web')).stdout).toMatch(new RegExp(`^NAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\\(S\\) +AGE\\nweb +NodePort +10\\.\\d+\\.\\d+\\.\\d+ +<none> +80:${nodePort}/TCP +\\d+s\\n$`));
    expect((await run(cluster, 'describe svc web')).stdout).toMatch(new RegExp(`\\nNodePort: +http +${nodePort}/TCP\\n`));

    // once the pods are ready and kube-proxy has synced, any node's IP answers on the node port
    await until(cluster, async () => {
      const slices = JSON.parse((await run(cluster, 'get endpointslices -l kubernetes.io/service-name=web -o json')).stdout) as { items: { endpoints?: { conditions?: { ready?: boolean } }[] }[] };
      return slices.items.flatMap((s) => s.endpoints ?? []).filter((e) => e.conditions?.ready === true).length === 2;
    }, 60_000);
    await cluster.advance(2000);
    const network = cluster.internals.components.network;
    const podNames = (JSON.parse((await run(cluster, 'get pods -l app=web -o json')).stdout) as { items: { metadata: { name: string } }[] }).items.map((p) => p.metadata.name);
    for (const m of cluster.internals.plan.machines.filter((x) => x.visible)) {
      const answer = network.sendExternalRequest(`${m.internalIP}:${nodePort}`);
      if (!answer.ok) throw new Error(`${m.name}: ${answer.error}`);
      expect(podNames).toContain(answer.pod.name);
      expect(answer.node).toBe(m.name);
      expect(answer.chains.slice(0, 3)).toEqual(['KUBE-SERVICES', 'KUBE-NODEPORTS', expect.stringMatching(/^KUBE-EXT-[A-Z2-7]{16}$/)]);
      expect(answer.rules[1]).toBe(`-A KUBE-NODEPORTS -p tcp -m comment --comment default/web:http -m tcp --dport ${nodePort} -j ${answer.chains[2]!}`);
      expect(answer.clientIP).toBe(m.internalIP); // externalTrafficPolicy Cluster masquerades
    }
    expect(network.iptablesSave('worker-1')).toContain(`--dport ${nodePort} -j KUBE-EXT-`);

    // the port is taken; a port outside the range is refused too
    const clash = await run(cluster, 'apply -f -', service('clash', 'NodePort', nodePort));
    expect(clash.exitCode).toBe(1);
    expect(clash.stderr).toContain(`The Service "clash" is invalid: spec.ports[0].nodePort: Invalid value: ${nodePort}: provided port is already allocated`);
    const outside = await run(cluster, 'apply -f -', service('clash', 'NodePort', 8080));
    expect(outside.stderr).toContain('spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767');

    // back to ClusterIP: the node port goes away, kube-proxy closes it, and another Service may take it
    expect((await run(cluster, 'apply -f -', service('web', 'ClusterIP'))).exitCode).toBe(0);
    const after = JSON.parse((await run(cluster, 'get svc web -o json')).stdout) as Service;
    expect(after.spec?.ports?.[0]?.nodePort).toBeUndefined();
    await cluster.advance(2000);
    const closed = network.sendExternalRequest(`${cluster.internals.plan.machines[0]!.internalIP}:${nodePort}`);
    expect(closed).toMatchObject({ ok: false, error: expect.stringContaining('connection refused') as unknown });
    expect(await run(cluster, 'apply -f -', service('clash', 'NodePort', nodePort))).toMatchObject({ stdout: 'service/clash created\n', exitCode: 0 });
    expect((await run(cluster, 'get svc clash')).stdout).toContain(`80:${nodePort}/TCP`);
  });
});

describe('LoadBalancer Services (managed topology)', () => {
  it('get node ports and a healthCheckNodePort; the load balancer IP reaches the pod on its own node, keeping the client address', { timeout: 120_000 }, async () => {
    const cluster = createCluster({ seed: 22, topology: 'managed', workers: 2 });
    expect((await run(cluster, 'apply -f -', APP.replace('replicas: 2', 'replicas: 1'))).exitCode).toBe(0);
    const lb = service('edge', 'LoadBalancer').replace('  selector:', '  externalTrafficPolicy: Local\n  selector:');
    expect((await run(cluster, 'apply -f -', lb)).exitCode).toBe(0);
    let svc: Service | undefined;
    await until(cluster, async () => {
      svc = JSON.parse((await run(cluster, 'get svc edge -o json')).stdout) as Service;
      return (svc.status?.loadBalancer?.ingress ?? []).length > 0;
    }, 30_000);
    const nodePort = svc!.spec?.ports?.[0]?.nodePort ?? 0;
    const healthCheck = svc!.spec?.healthCheckNodePort ?? 0;
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    expect(healthCheck).toBeGreaterThanOrEqual(30000);
    expect(healthCheck).not.toBe(nodePort);
    const described = (await run(cluster, 'describe svc edge')).stdout;
    expect(described).toMatch(new RegExp(`\\nNodePort: +http +${nodePort}/TCP\\n`));
    expect(described).toMatch(new RegExp(`\\nExternal Traffic Policy: +Local\\nInternal Traffic Policy: +Cluster\\nHealthCheck NodePort: +${healthCheck}\\n`));

    await until(cluster, async () => {
      const pods = JSON.parse((await run(cluster, 'get pods -l app=web -o json')).stdout) as { items: { status?: { conditions?: { type: string; status: string }[] } }[] };
      return pods.items.some((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    }, 90_000);
    await cluster.advance(3000);
    const pod = (JSON.parse((await run(cluster, 'get pods -l app=web -o json')).stdout) as { items: { metadata: { name: string }; spec: { nodeName: string } }[] }).items[0]!;
    const ip = svc!.status!.loadBalancer!.ingress![0]!.ip!;
    const network = cluster.internals.components.network;
    const answer = network.sendExternalRequest(`${ip}:80`);
    expect(answer).toMatchObject({ ok: true, node: pod.spec.nodeName, pod: { name: pod.metadata.name }, clientIP: EXTERNAL_CLIENT_IP });
    expect(answer.rules[0]).toContain(`-d ${ip}/32 -p tcp -m comment --comment "default/edge:http loadbalancer IP" -m tcp --dport 80 -j KUBE-EXT-`);
    expect(answer.chains.some((c) => c.startsWith('KUBE-SVL-'))).toBe(true);
    // the other worker has no endpoint: its node port drops outside traffic (Local)
    const other = cluster.internals.plan.machines.find((m) => m.visible && m.name !== pod.spec.nodeName)!;
    expect(network.sendExternalRequest(`${other.internalIP}:${nodePort}`)).toMatchObject({ ok: false, error: expect.stringContaining('i/o timeout') as unknown });
  });
});
