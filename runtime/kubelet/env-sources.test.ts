import { describe, expect, it } from 'vitest';
import type { ConfigMap, Container, Pod, Secret } from '../api/index.ts';
import { referencedSources, resolveEnv } from './env-sources.ts';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', labels: { a: 'b' } }, spec: { containers: [], nodeName: 'n1' }, status: { hostIP: '10.0.0.1' } } as unknown as Pod;
const cm: ConfigMap = { metadata: { name: 'cm' }, data: { color: 'blue', size: '10' } };
const secret: Secret = { metadata: { name: 's' }, data: { password: 'aMOpbGxv' } };
const sources = new Map<string, ConfigMap | Secret | null>([['ConfigMap/cm', cm], ['Secret/s', secret], ['ConfigMap/gone', null]]);
const run = (c: Partial<Container>) => resolveEnv(pod, { name: 'c', ...c } as Container, sources, '10.244.1.5');

describe('resolveEnv (makeEnvironmentVariables)', () => {
  it('takes envFrom first (with its prefix), then env in order, later names replacing earlier ones', () => {
    expect(run({
      envFrom: [{ configMapRef: { name: 'cm' }, prefix: 'X_' }, { configMapRef: { name: 'gone', optional: true } }],
      env: [{ name: 'X_color', value: 'red' }, { name: 'PW', valueFrom: { secretKeyRef: { name: 's', key: 'password' } } }],
    })).toEqual({ ok: true, env: [['X_color', 'red'], ['X_size', '10'], ['PW', 'héllo']] });
  });

  it('expands $(VAR) from the variables before it; $$ escapes; unknown references stay', () => {
    expect(run({ env: [{ name: 'A', value: 'x' }, { name: 'B', value: '$(A)-$$(A)-$(C)' }, { name: 'C', value: 'late' }] })).toEqual({
      ok: true, env: [['A', 'x'], ['B', 'x-$(A)-$(C)'], ['C', 'late']],
    });
  });

  it('reads the downward API fields', () => {
    const fields = ['metadata.name', 'metadata.namespace', 'metadata.uid', "metadata.labels['a']", 'spec.nodeName', 'status.hostIP', 'status.podIP'];
    const r = run({ env: fields.map((fieldPath, i) => ({ name: `F${i}`, valueFrom: { fieldRef: { fieldPath } } })) });
    expect(r.ok && r.env.map(([, v]) => v)).toEqual(['p', 'ns', 'u1', 'b', 'n1', '10.0.0.1', '10.244.1.5']);
  });

  it.each([
    [{ envFrom: [{ secretRef: { name: 'gone2' } }] }, 'secret "gone2" not found'],
    [{ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'gone', key: 'k' } } }] }, 'configmap "gone" not found'],
    [{ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }] }, "couldn't find key k in ConfigMap ns/cm"],
    [{ env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'user' } } }] }, "couldn't find key user in Secret ns/s"],
  ])('refuses %j: %s', (c, error) => {
    expect(run(c as Partial<Container>)).toEqual({ ok: false, error });
  });

  it('reads limits and requests in the divisor\'s units, an unset limit as the node\'s allocatable', () => {
    const c = { name: 'c', resources: { limits: { memory: '128Mi' }, requests: { cpu: '250m' } }, env: [
      { name: 'MEM_MB', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      { name: 'CPU_M', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
      { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
    ] } as Container;
    expect(resolveEnv(pod, c, sources, undefined, { cpu: '2', memory: '4Gi' })).toEqual({ ok: true, env: [['MEM_MB', '128'], ['CPU_M', '250'], ['CPU_LIMIT', '2']] });
  });

  it('lists each referenced object once', () => {
    expect(referencedSources({
      name: 'c', envFrom: [{ configMapRef: { name: 'cm' } }],
      env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'color' } } }, { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'password' } } }],
    } as Container)).toEqual([{ kind: 'ConfigMap', name: 'cm' }, { kind: 'Secret', name: 's' }]);
  });
});
