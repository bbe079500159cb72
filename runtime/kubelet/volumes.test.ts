import { describe, expect, it } from 'vitest';
import type { ConfigMap, Container, Pod, Secret } from '../api/index.ts';
import { containerFiles, mountVolumes, volumeSources } from './volumes.ts';

const m = { serviceAccountToken: 'a.b.c' };
const cm: ConfigMap = { metadata: { name: 'cm' }, data: { a: '1', b: '2' } };
const secret: Secret = { metadata: { name: 's' }, data: { password: 'czNjcjN0' } };
const sources = new Map<string, ConfigMap | Secret | null>([['ConfigMap/cm', cm], ['Secret/s', secret], ['ConfigMap/gone', null]]);
const pod = (volumes: unknown[]): Pod => ({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], volumes } } as unknown as Pod);

describe('mountVolumes (MakePayload of the configmap, secret and projected plugins)', () => {
  it('writes every key, or just the items asked for, a Secret decoded', () => {
    const r = mountVolumes(pod([{ name: 'c', configMap: { name: 'cm' } }, { name: 's', secret: { secretName: 's', items: [{ key: 'password', path: 'pw' }] } }, { name: 'e', emptyDir: {} }]), sources, m);
    expect(r.ok && Object.fromEntries(r.volumes)).toEqual({ c: { a: '1', b: '2' }, s: { pw: 's3cr3t' }, e: {} });
  });

  it.each([
    [{ name: 'v', configMap: { name: 'gone' } }, 'configmap "gone" not found'],
    [{ name: 'v', secret: { secretName: 'nope' } }, 'secret "nope" not found'],
    [{ name: 'v', configMap: { name: 'cm', items: [{ key: 'z', path: 'z' }] } }, 'configmap references non-existent config key: z'],
    [{ name: 'v', secret: { secretName: 's', items: [{ key: 'z', path: 'z' }] } }, 'references non-existent secret key: z'],
    [{ name: 'v', projected: { sources: [{ configMap: { name: 'gone' } }] } }, 'configmap "gone" not found'],
  ])('fails %j: %s', (volume, error) => {
    expect(mountVolumes(pod([volume]), sources, m)).toEqual({ ok: false, volume: 'v', error });
  });

  it('skips what is optional', () => {
    const r = mountVolumes(pod([{ name: 'v', configMap: { name: 'gone', optional: true } }]), sources, m);
    expect(r.ok && r.volumes.get('v')).toEqual({});
  });

  it('lists the objects the volumes read, once each', () => {
    expect(volumeSources(pod([{ name: 'a', configMap: { name: 'cm' } }, { name: 'b', projected: { sources: [{ configMap: { name: 'cm' } }, { secret: { name: 's' } }] } }]))).toEqual([
      { kind: 'ConfigMap', name: 'cm' }, { kind: 'Secret', name: 's' },
    ]);
  });
});

describe('containerFiles', () => {
  it('puts a volume under its mount path; a subPath mounts one file of it', () => {
    const volumes = new Map([['c', { a: '1', 'dir/b': '2' }]]);
    const c = { name: 'x', volumeMounts: [{ name: 'c', mountPath: '/etc/c/' }, { name: 'c', mountPath: '/etc/one', subPath: 'a' }, { name: 'missing', mountPath: '/m' }] } as Container;
    expect(containerFiles(c, volumes)).toEqual({ '/etc/c/a': '1', '/etc/c/dir/b': '2', '/etc/one': '1' });
  });
});
