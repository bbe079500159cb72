// kubectl version, cluster-info and top: what they print about this cluster.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/version/version.go (client, kustomize and server
// lines; the server's from GET /version), clusterinfo/clusterinfo.go (the control plane URL, then
// each kube-system Service labelled kubernetes.io/cluster-service=true, through the API server's
// service proxy) and top/top_node.go, top_pod.go ("Metrics API not available" without
// metrics-server, which kubeadm and kind clusters do not install).
import type { Service } from '../../../api/index.ts';
import { flagBool } from '../args.ts';
import type { Ctx } from '../context.ts';

/** The kubectl we imitate: v1.33, which embeds kustomize v5.6.0. */
export const KUBECTL_VERSION = 'v1.33.0';
const KUSTOMIZE_VERSION = 'v5.6.0';

export function runVersion(ctx: Ctx, done: () => void): void {
  ctx.out(`Client Version: ${KUBECTL_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
  if (flagBool(ctx.args, 'client')) return done();
  ctx.transport.raw({ path: '/version' }, (res) => {
    if (!res.ok) ctx.statusError(res.status);
    else ctx.out(`Server Version: ${(JSON.parse(res.body) as { gitVersion: string }).gitVersion}\n`);
    done();
  });
}

export function runClusterInfo(ctx: Ctx, done: () => void): void {
  const server = ctx.io.serverURL ?? 'https://127.0.0.1:6443';
  ctx.transport.raw({ path: '/version' }, (probe) => {
    if (!probe.ok) {
      ctx.out('\nTo further debug and diagnose cluster problems, use \'kubectl cluster-info dump\'.\n');
      ctx.statusError(probe.status);
      return done();
    }
    ctx.out(`Kubernetes control plane is running at ${server}\n`);
    ctx.request(
      {
        verb: 'list',
        resource: { group: '', version: 'v1', resource: 'services' },
        namespace: 'kube-system',
        query: { labelSelector: 'kubernetes.io/cluster-service=true' },
      },
      (res) => {
        if (res.ok) {
          for (const s of (res.body as { items: Service[] }).items) {
            const name = s.metadata.labels?.['kubernetes.io/name'] ?? s.metadata.name ?? '';
            const port = s.spec.ports?.[0];
            const portPart = port?.name ? `:${port.name}` : port ? `:${port.port}` : '';
            ctx.out(`${name} is running at ${server}/api/v1/namespaces/kube-system/services/${s.metadata.name ?? ''}${portPart}/proxy\n`);
          }
        }
        ctx.out("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n");
        done();
      },
    );
  });
}

export function runTop(ctx: Ctx, done: () => void): void {
  ctx.error('Metrics API not available');
  done();
}
