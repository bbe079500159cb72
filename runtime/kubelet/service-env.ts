// The Service environment variables the kubelet gives every container (the docker-links style
// service discovery): the "kubernetes" Service of the default namespace always, and with
// spec.enableServiceLinks (the default) every Service of the pod's own namespace that has a cluster
// IP. mirrors pkg/kubelet/kubelet_pods.go getServiceEnvVarMap and pkg/kubelet/envvars/envvars.go
// (FromServices, makeLinkVariables). Only the Services that exist when the container starts count.
import type { Service } from '../api/index.ts';

/** The Services whose variables every pod gets, from the default namespace (masterServices). */
const MASTER_SERVICES = new Set(['kubernetes']);

/** makeEnvVariableName: upper case, dashes as underscores. */
const envName = (name: string): string => name.toUpperCase().replace(/-/g, '_');

/** getServiceEnvVarMap: which Services a pod in `namespace` sees, then their variables. */
export function serviceEnvVars(services: readonly Service[], namespace: string, enableServiceLinks: boolean): [string, string][] {
  const chosen = new Map<string, Service>();
  for (const s of services) {
    const ip = s.spec?.clusterIP;
    if (!ip || ip === 'None') continue; // IsServiceIPSet
    const name = s.metadata.name ?? '';
    if (s.metadata.namespace === 'default' && MASTER_SERVICES.has(name)) {
      if (!chosen.has(name)) chosen.set(name, s);
    } else if (s.metadata.namespace === namespace && enableServiceLinks) {
      chosen.set(name, s);
    }
  }
  return [...chosen.values()].flatMap(fromService);
}

/** FromServices for one Service: host, first port, named ports, then the docker link variables. */
function fromService(s: Service): [string, string][] {
  const ports = s.spec.ports ?? [];
  if (ports.length === 0) return [];
  const prefix = envName(s.metadata.name ?? '');
  const ip = s.spec.clusterIP ?? '';
  const out: [string, string][] = [[`${prefix}_SERVICE_HOST`, ip], [`${prefix}_SERVICE_PORT`, String(ports[0]!.port)]];
  for (const p of ports) if (p.name) out.push([`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port)]);
  ports.forEach((p, i) => {
    const protocol = (p.protocol ?? 'TCP').toLowerCase();
    const hostPort = ip.includes(':') ? `[${ip}]:${p.port}` : `${ip}:${p.port}`;
    if (i === 0) out.push([`${prefix}_PORT`, `${protocol}://${hostPort}`]);
    const portPrefix = `${prefix}_PORT_${p.port}_${protocol.toUpperCase()}`;
    out.push([portPrefix, `${protocol}://${hostPort}`], [`${portPrefix}_PROTO`, protocol], [`${portPrefix}_PORT`, String(p.port)], [`${portPrefix}_ADDR`, ip]);
  });
  return out;
}
