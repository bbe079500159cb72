// resourceFieldRef values: pkg/api/v1/resource/helpers_test.go (TestExtractResourceValue) and the
// kubelet's node-allocatable defaults for unset limits (kubelet_resources_test.go).
import { describe, expect, it } from 'vitest';
import { containerResourceValue } from './resource-field.ts';
import type { Container, Pod } from './types/core.ts';

const container = (limits?: Record<string, string>, requests?: Record<string, string>): Container =>
  ({ name: 'app', resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) } }) as Container;
const podOf = (...containers: Container[]): Pod => ({ metadata: { name: 'p' }, spec: { containers } }) as Pod;
const node = { cpu: '4', memory: '8Gi', 'ephemeral-storage': '100Gi' };

describe('containerResourceValue (ExtractContainerResourceValue)', () => {
  it.each([
    ['limits.cpu', undefined, container({ cpu: '9' }), '9'],
    ['requests.cpu', undefined, container(), '0'],
    ['requests.cpu', undefined, container(undefined, { cpu: '8' }), '8'],
    ['requests.cpu', '1m', container(undefined, { cpu: '100m' }), '100'],
    ['limits.cpu', undefined, container({ cpu: '1500m' }), '2'], // rounded up
    ['limits.cpu', '100m', container({ cpu: '250m' }), '3'],
    ['limits.memory', '1Mi', container({ memory: '1Gi' }), '1024'],
    ['requests.memory', undefined, container(undefined, { memory: '500Mi' }), '524288000'],
    ['limits.memory', '1Gi', container({ memory: '1500Mi' }), '2'],
    ['limits.ephemeral-storage', '1Gi', container({ 'ephemeral-storage': '10Gi' }), '10'],
    ['limits.cpu', undefined, container(), '4'], // unset limit: the node's allocatable
    ['limits.memory', '1Mi', container(), '8192'],
    ['requests.memory', undefined, container(), '0'], // requests are never defaulted from the node
  ])('%s (divisor %s) of %j is %s', (resource, divisor, c, want) => {
    expect(containerResourceValue({ resource, ...(divisor ? { divisor } : {}) }, podOf(c), c, node)).toEqual({ ok: true, value: want });
  });

  it('reads another container when containerName names it', () => {
    const sidecar = { ...container({ memory: '64Mi' }), name: 'sidecar' };
    const app = container({ memory: '1Gi' });
    expect(containerResourceValue({ containerName: 'sidecar', resource: 'limits.memory', divisor: '1Mi' }, podOf(app, sidecar), app, node)).toEqual({ ok: true, value: '64' });
    expect(containerResourceValue({ containerName: 'nope', resource: 'limits.memory' }, podOf(app), app, node)).toEqual({ ok: false, error: 'container nope not found' });
  });

  it('refuses a resource it does not know', () => {
    const c = container();
    expect(containerResourceValue({ resource: 'limits.gpu' }, podOf(c), c, node)).toEqual({ ok: false, error: 'unsupported container resource : limits.gpu' });
  });
});
