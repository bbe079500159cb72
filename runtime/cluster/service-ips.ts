// Service cluster IPs as Kubernetes v1.33 allocates them (MultiCIDRServiceAllocator, on by
// default): every allocated IP is a networking.k8s.io/v1 IPAddress object named by the IP, created
// through the API server's own loopback client, so the IPs live in etcd beside the Services (an
// etcd restore brings both back) and the etcd create-if-absent is what stops two replicas from
// handing out the same IP.
// mirrors pkg/registry/core/service/ipallocator/ipallocator.go (createIPAddress, allocateService,
// allocateNextService, allocateFromRange, release), metaallocator.go (ErrMismatchedNetwork for an IP
// outside every ServiceCIDR) and interfaces.go (the error texts).
import type { IPAddress, Service, Status } from '../api/index.ts';
import type { ApiRequest, ResponseCallback } from '../apiserver/index.ts';
import type { ServiceIpRange } from '../network/index.ts';

/** ipallocator.ControllerName, the managed-by label's value. */
export const IP_ALLOCATOR_NAME = 'ipallocator.k8s.io';
export const LABEL_IP_FAMILY = 'ipaddress.kubernetes.io/ip-family';
export const LABEL_MANAGED_BY = 'ipaddress.kubernetes.io/managed-by';
/** ipallocator.ErrAllocated, ErrMismatchedNetwork, ErrFull. */
export const ERR_IP_ALLOCATED = 'provided IP is already allocated';
export const ERR_MISMATCHED_NETWORK = 'the provided network does not match the current range';
export const ERR_IP_RANGE_FULL = 'range is full';

/** The loopback client of kube-apiserver: system:apiserver in system:masters. */
export const LOOPBACK_CREDENTIALS = { clientCert: { commonName: 'system:apiserver', organizations: ['system:masters'] } };

export interface Loopback {
  request(req: ApiRequest, cb: ResponseCallback): void;
}

export interface ServiceIpAllocatorOptions {
  /** The replica's own pipeline; undefined while it is down. */
  loopback: () => Loopback | undefined;
  range: ServiceIpRange;
  rng: { nextInt(n: number): number };
}

const IPADDRESSES = { group: 'networking.k8s.io', resource: 'ipaddresses' };

export class ServiceIpAllocator {
  constructor(private readonly o: ServiceIpAllocatorOptions) {}

  get range(): ServiceIpRange {
    return this.o.range;
  }

  /** AllocateService(svc, ip): the IPAddress for a requested IP; an error text when it cannot be had. */
  allocate(svc: Service, ip: string, done: (error?: string) => void): void {
    if (!this.o.range.contains(ip)) return done(ERR_MISMATCHED_NETWORK);
    this.create(svc, ip, (status) => done(status === undefined ? undefined : status.code === 409 ? ERR_IP_ALLOCATED : status.message ?? ''));
  }

  /**
   * AllocateNextService: walk the candidates (random start, upper band first), skip the IPs this
   * replica's cache already holds, and create the first free one; another replica that took it a
   * moment ago (AlreadyExists, the "mid-air collision") only moves the walk on.
   */
  allocateNext(svc: Service, isKnown: (ip: string) => boolean, done: (r: { ip: string } | { error: string }) => void): void {
    const candidates = this.o.range.candidates(this.o.rng);
    const next = (): void => {
      for (let c = candidates.next(); !c.done; c = candidates.next()) {
        const ip = c.value;
        if (isKnown(ip)) continue;
        return this.create(svc, ip, (status) => {
          if (status === undefined) return done({ ip });
          if (status.code === 409) return next();
          done({ error: status.message ?? '' });
        });
      }
      done({ error: ERR_IP_RANGE_FULL });
    };
    next();
  }

  /** Release: delete the IPAddress; errors are ignored, as upstream does. */
  release(ip: string, done: () => void = () => undefined): void {
    const loopback = this.o.loopback();
    if (!loopback) return done();
    loopback.request({ verb: 'delete', ...IPADDRESSES, name: ip, credentials: LOOPBACK_CREDENTIALS, userAgent: 'kube-apiserver' }, () => done());
  }

  private create(svc: Service, ip: string, done: (error?: Status) => void): void {
    const loopback = this.o.loopback();
    if (!loopback) return done({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'allocator not ready', code: 503 } as Status);
    loopback.request({ verb: 'create', ...IPADDRESSES, body: ipAddressFor(svc, ip), credentials: LOOPBACK_CREDENTIALS, userAgent: 'kube-apiserver' }, (res) => {
      done(res.code === 201 ? undefined : (res.body as Status));
    });
  }
}

/** createIPAddress: named by the IP, labelled with its family and manager, pointing at its Service. */
export function ipAddressFor(svc: Service, ip: string): IPAddress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: { name: ip, labels: { [LABEL_IP_FAMILY]: 'IPv4', [LABEL_MANAGED_BY]: IP_ALLOCATOR_NAME } },
    spec: { parentRef: { group: '', resource: 'services', namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' } },
  };
}

/** The cluster IPs a Service holds (not "None", not empty). */
export function clusterIPsOf(svc: Service | undefined): string[] {
  const spec = svc?.spec;
  return (spec?.clusterIPs ?? (spec?.clusterIP ? [spec.clusterIP] : [])).filter((ip) => ip !== '' && ip !== 'None');
}

/** needsClusterIP: every type but ExternalName, unless headless. */
export function needsClusterIP(svc: Service | undefined): boolean {
  return svc?.spec?.type !== 'ExternalName' && svc?.spec?.clusterIP !== 'None';
}
