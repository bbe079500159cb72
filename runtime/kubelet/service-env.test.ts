import { describe, expect, it } from 'vitest';
import type { Service } from '../api/index.ts';
import { serviceEnvVars } from './service-env.ts';

const svc = (namespace: string, name: string, clusterIP: string, ports: { name?: string; port: number; protocol?: 'TCP' | 'UDP' }[]): Service =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { clusterIP, ports } }) as Service;

const services = [
  svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]),
  svc('shop', 'web-api', '10.96.7.7', [{ port: 80, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }]),
  svc('shop', 'dns', '10.96.0.53', [{ name: 'dns', port: 53, protocol: 'UDP' }]),
  svc('shop', 'headless', 'None', [{ port: 80 }]),
  svc('other', 'elsewhere', '10.96.9.9', [{ port: 80 }]),
];

describe('serviceEnvVars (envvars.go)', () => {
  it("gives the kubernetes Service's and the namespace's, docker-links style", () => {
    const env = new Map(serviceEnvVars(services, 'shop', true));
    expect(Object.fromEntries([...env].filter(([k]) => k.startsWith('WEB_API_')))).toEqual({
      WEB_API_SERVICE_HOST: '10.96.7.7',
      WEB_API_SERVICE_PORT: '80',
      WEB_API_SERVICE_PORT_METRICS: '9090',
      WEB_API_PORT: 'tcp://10.96.7.7:80',
      WEB_API_PORT_80_TCP: 'tcp://10.96.7.7:80',
      WEB_API_PORT_80_TCP_PROTO: 'tcp',
      WEB_API_PORT_80_TCP_PORT: '80',
      WEB_API_PORT_80_TCP_ADDR: '10.96.7.7',
      WEB_API_PORT_9090_TCP: 'tcp://10.96.7.7:9090',
      WEB_API_PORT_9090_TCP_PROTO: 'tcp',
      WEB_API_PORT_9090_TCP_PORT: '9090',
      WEB_API_PORT_9090_TCP_ADDR: '10.96.7.7',
    });
    expect(env.get('DNS_PORT_53_UDP')).toBe('udp://10.96.0.53:53');
    expect(env.get('KUBERNETES_SERVICE_PORT_HTTPS')).toBe('443');
    expect([...env.keys()].some((k) => k.startsWith('HEADLESS_') || k.startsWith('ELSEWHERE_'))).toBe(false);
  });

  it('without service links, only the kubernetes Service', () => {
    expect(serviceEnvVars(services, 'shop', false).map(([k]) => k)).toEqual([
      'KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT', 'KUBERNETES_SERVICE_PORT_HTTPS', 'KUBERNETES_PORT',
      'KUBERNETES_PORT_443_TCP', 'KUBERNETES_PORT_443_TCP_PROTO', 'KUBERNETES_PORT_443_TCP_PORT', 'KUBERNETES_PORT_443_TCP_ADDR',
    ]);
  });
});
