// CoreDNS, the cluster DNS kubeadm installs: a Deployment in kube-system behind the kube-dns
// Service (10.96.0.10). Each pod's program keeps the kubernetes plugin's view of the cluster
// (informers on Services, EndpointSlices and Namespaces, as plugin/kubernetes/controller.go
// builds them) and answers queries from it once the informers have synced (the ready plugin).
// Names it answers, as the Kubernetes DNS specification says (A records; SRV and PTR queries are
// not simulated):
//   <service>.<namespace>.svc.cluster.local  A: the cluster IP; for a headless Service, each ready
//                                            endpoint's address; for an ExternalName Service, a
//                                            CNAME to spec.externalName (chased when it is in the
//                                            cluster's zone, as plugin/kubernetes does)
//   <host>.<service>.<namespace>.svc...      A: a headless Service's ready endpoint whose hostname
//                                            is <host> (or, without one, its IP with dashes)
//   <a-b-c-d>.<namespace>.pod.cluster.local  A: a.b.c.d (kubeadm's Corefile says `pods insecure`:
//                                            the address is not checked against any pod)
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
  | { rcode: 'NOERROR'; addresses: string[]; cname?: string }
  | { rcode: 'NXDOMAIN'; cname?: string }
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
export function answerFromCache(name: string, services: readonly Service[], slices: readonly EndpointSlice[], namespaces: readonly Namespace[], chased = 0): DnsAnswer {
  const fqdn = (name.endsWith('.') ? name.slice(0, -1) : name).toLowerCase();
  const zone = `.${CLUSTER_DOMAIN}`;
  if (!fqdn.endsWith(zone)) return { rcode: 'NXDOMAIN' };
  const labels = fqdn.slice(0, -zone.length).split('.');
  const kind = labels.pop();
  const hasNamespace = (ns: string): boolean => namespaces.some((n) => n.metadata.name === ns);
  if (kind === 'pod') return podRecord(labels, hasNamespace);
  if (kind !== 'svc' || labels.length < 2 || labels.length > 3) return { rcode: 'NXDOMAIN' };
  const [ns, svcName, host] = [labels.at(-1)!, labels.at(-2)!, labels.length === 3 ? labels[0] : undefined];
  if (!hasNamespace(ns)) return { rcode: 'NXDOMAIN' };
  const svc = services.find((s) => s.metadata.namespace === ns && s.metadata.name === svcName);
  if (!svc) return { rcode: 'NXDOMAIN' };
  if (svc.spec.type === 'ExternalName') {
    if (host !== undefined) return { rcode: 'NXDOMAIN' };
    return externalName(svc.spec.externalName ?? '', services, slices, namespaces, chased);
  }
  const headless = !svc.spec.clusterIP || svc.spec.clusterIP === 'None';
  if (!headless) return host === undefined ? { rcode: 'NOERROR', addresses: [svc.spec.clusterIP!] } : { rcode: 'NXDOMAIN' };
  // headless: the ready endpoints of its slices, or the one named by <host>
  const endpoints = slices
    .filter((s) => s.metadata.namespace === ns && s.metadata.labels?.['kubernetes.io/service-name'] === svcName)
    .flatMap((s) => (s.endpoints ?? []).filter((e) => e.conditions?.ready !== false));
  const named = host === undefined ? endpoints : endpoints.filter((e) => endpointHostnames(e).includes(host));
  const addresses = named.flatMap((e) => e.addresses);
  return addresses.length > 0 ? { rcode: 'NOERROR', addresses: [...new Set(addresses)].sort() } : { rcode: 'NXDOMAIN' };
}

/** plugin/kubernetes endpointHostname: the endpoint's hostname, or its address with dashes. */
function endpointHostnames(e: { hostname?: string; addresses: string[] }): string[] {
  return e.hostname ? [e.hostname.toLowerCase()] : e.addresses.map((a) => a.replace(/\./g, '-'));
}

/** findPods in insecure mode: "1-2-3-4" in a namespace that exists is 1.2.3.4, checked only as an IPv4. */
function podRecord(labels: string[], hasNamespace: (ns: string) => boolean): DnsAnswer {
  if (labels.length !== 2) return { rcode: 'NXDOMAIN' };
  const [dashed, ns] = labels as [string, string];
  if (!hasNamespace(ns)) return { rcode: 'NXDOMAIN' };
  const parts = dashed.split('-');
  const valid = parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && (p === '0' || !p.startsWith('0')));
  return valid ? { rcode: 'NOERROR', addresses: [parts.join('.')] } : { rcode: 'NXDOMAIN' };
}

const MAX_CNAME_CHASE = 8;

/** An ExternalName Service: a CNAME, whose target CoreDNS resolves itself when it is in the cluster's zone. */
function externalName(target: string, services: readonly Service[], slices: readonly EndpointSlice[], namespaces: readonly Namespace[], depth: number): DnsAnswer {
  const cname = target.endsWith('.') ? target.slice(0, -1) : target;
  if (!cname.toLowerCase().endsWith(`.${CLUSTER_DOMAIN}`)) return { rcode: 'NOERROR', addresses: [], cname };
  // CoreDNS stops chasing an in-zone chain after 8 CNAMEs (plugin/backend_lookup.go A: a loop otherwise)
  if (depth >= MAX_CNAME_CHASE) return { rcode: 'SERVFAIL', why: `CNAME chain longer than ${MAX_CNAME_CHASE}` };
  const chased = answerFromCache(cname, services, slices, namespaces, depth + 1);
  if (chased.rcode === 'NOERROR') return { rcode: 'NOERROR', addresses: chased.addresses, cname };
  return chased.rcode === 'NXDOMAIN' ? { rcode: 'NXDOMAIN', cname } : chased;
}
