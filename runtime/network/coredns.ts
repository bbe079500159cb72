// CoreDNS, the cluster DNS kubeadm installs: a Deployment in kube-system behind the kube-dns
// Service (10.96.0.10). Each pod's program keeps the kubernetes plugin's view of the cluster
// (informers on Services, EndpointSlices and Namespaces, as plugin/kubernetes/controller.go
// builds them) and answers queries from it once the informers have synced (the ready plugin).
// Names it answers, as the Kubernetes DNS specification says:
//   <service>.<namespace>.svc.cluster.local  A: the cluster IP; for a headless Service, each ready
//                                            endpoint's address
//   anything else under cluster.local        NXDOMAIN
// Names outside cluster.local go to the node's resolver (`forward . /etc/resolv.conf`); the world
// outside this simulation has no names, so they are NXDOMAIN too.
// One process per node serves every CoreDNS container of that node (like kube-proxy's program).
import type { EndpointSlice, Namespace, Service } from '../api/index.ts';
import { SharedInformer, restListerWatcher, type RestClient } from '../client/index.ts';
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import { ContainerProgram } from './container-program.ts';

export const COREDNS_IMAGE_REPO = 'registry.k8s.io/coredns/coredns';
export const CLUSTER_DOMAIN = 'cluster.local';

/** The answer of a CoreDNS process that is not running: the query times out. */
export const NOT_RUNNING = 'CoreDNS is not running';

export type DnsAnswer =
  | { rcode: 'NOERROR'; addresses: string[] }
  | { rcode: 'NXDOMAIN' }
  | { rcode: 'SERVFAIL'; why: string };

/** What a running CoreDNS answers from; the data plane asks it for the pod a query reached. */
export interface DnsServer {
  answer(name: string): DnsAnswer;
}

export interface CoreDnsOptions {
  nodeName: string;
  /** A client with CoreDNS's credentials (system:serviceaccount:kube-system:coredns). */
  restClient: RestClient;
  /** Where each incarnation registers the node's DNS server (ClusterNetwork.setDnsServer); a dead one answers nothing. */
  register: (server: DnsServer) => void;
  processName?: string;
}

/** CoreDNS as the program of the node's CoreDNS containers. */
export function corednsProgram(kernel: Kernel, o: CoreDnsOptions): ContainerProgram {
  const processName = o.processName ?? `coredns-${o.nodeName}`;
  return new ContainerProgram(kernel, { processName, imageRepo: COREDNS_IMAGE_REPO, main: (ctx) => runCoreDns(ctx, o) });
}

function runCoreDns(ctx: ProcessContext, o: CoreDnsOptions): void {
  ctx.trace('coredns.start', `${o.nodeName}: CoreDNS-1.12.0, watching Services, EndpointSlices and Namespaces`);
  const services = new SharedInformer<Service>(ctx, restListerWatcher(o.restClient, { group: '', resource: 'services' }));
  const slices = new SharedInformer<EndpointSlice>(ctx, restListerWatcher(o.restClient, { group: 'discovery.k8s.io', resource: 'endpointslices' }));
  const namespaces = new SharedInformer<Namespace>(ctx, restListerWatcher(o.restClient, { group: '', resource: 'namespaces' }));
  const server: DnsServer = {
    answer: (name) => {
      if (!ctx.isLive()) return { rcode: 'SERVFAIL', why: NOT_RUNNING };
      if (!services.hasSynced || !slices.hasSynced || !namespaces.hasSynced) return { rcode: 'SERVFAIL', why: 'the kubernetes plugin has not synced yet' };
      return answerFromCache(name, services.lister.list(), slices.lister.list(), namespaces.lister.list());
    },
  };
  services.start();
  slices.start();
  namespaces.start();
  o.register(server);
}

/** The kubernetes plugin's records for one fully qualified name. */
export function answerFromCache(name: string, services: readonly Service[], slices: readonly EndpointSlice[], namespaces: readonly Namespace[]): DnsAnswer {
  const fqdn = name.endsWith('.') ? name.slice(0, -1) : name;
  const suffix = `.svc.${CLUSTER_DOMAIN}`;
  if (!fqdn.endsWith(`.${CLUSTER_DOMAIN}`) && fqdn !== CLUSTER_DOMAIN) return { rcode: 'NXDOMAIN' };
  if (!fqdn.endsWith(suffix)) return { rcode: 'NXDOMAIN' };
  const labels = fqdn.slice(0, -suffix.length).split('.');
  if (labels.length !== 2) return { rcode: 'NXDOMAIN' };
  const [svcName, ns] = labels as [string, string];
  if (!namespaces.some((n) => n.metadata.name === ns)) return { rcode: 'NXDOMAIN' };
  const svc = services.find((s) => s.metadata.namespace === ns && s.metadata.name === svcName);
  if (!svc) return { rcode: 'NXDOMAIN' };
  if (svc.spec.type === 'ExternalName') return { rcode: 'SERVFAIL', why: 'ExternalName records are not simulated' };
  if (svc.spec.clusterIP && svc.spec.clusterIP !== 'None') return { rcode: 'NOERROR', addresses: [svc.spec.clusterIP] };
  // headless: the ready endpoints of its slices
  const addresses = slices
    .filter((s) => s.metadata.namespace === ns && s.metadata.labels?.['kubernetes.io/service-name'] === svcName)
    .flatMap((s) => (s.endpoints ?? []).filter((e) => e.conditions?.ready !== false).flatMap((e) => e.addresses));
  return addresses.length > 0 ? { rcode: 'NOERROR', addresses: [...new Set(addresses)].sort() } : { rcode: 'NXDOMAIN' };
}
