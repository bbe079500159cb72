// kubectl create service's object (create_service.go createService and Validate).
import { describe, expect, it } from 'vitest';
import { serviceFor } from './create-service.ts';

describe('serviceFor', () => {
  it('clusterip with --tcp port:target: app labels and selector, the port named after the spec', () => {
    expect(serviceFor('my-cs', 'ClusterIP', ['5678:8080'])).toEqual({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'my-cs', labels: { app: 'my-cs' } },
      spec: { type: 'ClusterIP', selector: { app: 'my-cs' }, ports: [{ name: '5678-8080', protocol: 'TCP', port: 5678, targetPort: 8080 }] },
    });
  });
  it.each([
    ['a port alone targets itself', serviceFor('a', 'NodePort', ['80'], undefined, 30080), { ports: [{ name: '80', protocol: 'TCP', port: 80, targetPort: 80, nodePort: 30080 }] }],
    ['headless needs no port', serviceFor('h', 'ClusterIP', [], 'None'), { clusterIP: 'None' }],
    ['externalname', serviceFor('e', 'ExternalName', [], undefined, undefined, 'bar.com'), { type: 'ExternalName', externalName: 'bar.com' }],
  ])('%s', (_, got, spec) => {
    expect(got).toMatchObject({ spec });
  });
  it.each([
    [serviceFor('x', 'ClusterIP', []), 'at least one tcp port specifier must be provided'],
    [serviceFor('x', 'ExternalName', []), 'external name must be specified'],
    [serviceFor('x', 'NodePort', ['80'], 'None'), 'ClusterIP=None can only be used with ClusterIP service type'],
    [serviceFor('x', 'ClusterIP', ['http']), 'invalid port: http'],
  ])('refuses: %j', (got, error) => {
    expect(got).toEqual({ error });
  });
});
