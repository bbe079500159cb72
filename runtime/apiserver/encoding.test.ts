import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RESOURCES, type KubeObject } from '../api/index.ts';
import { adoptWireBody, copyWithout, decodeBody, decodeShared, encodeForStorage, MAX_REQUEST_BODY_BYTES, rememberWritten, storedTextOf } from './encoding.ts';

const configMaps = RESOURCES.find((r) => r.resource === 'configmaps' && r.group === '')!;
const body = () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' }, extra: 1 });

describe('decodeBody: wire bodies are decoded in place, once; others are copied', () => {
  it('a body the caller still holds is copied: the caller never sees the decoding changes', () => {
    const mine = body();
    const r = decodeBody(mine, configMaps);
    expect(r.ok && r.object).not.toBe(mine);
    expect(mine.extra).toBe(1);
    expect(r.ok && r.warnings).toEqual(['unknown field "extra"']);
  });

  it('a body parsed from a request text is adopted: decoded in place, and only the first time', () => {
    const wire = body();
    adoptWireBody(wire, JSON.stringify(wire).length);
    const first = decodeBody(wire, configMaps);
    expect(first.ok && first.object).toBe(wire);
    expect('extra' in wire).toBe(false);
    const second = decodeBody(wire, configMaps);
    expect(second.ok && second.object).not.toBe(wire);
  });

  it('the size limit applies to the request text of a wire body (413 RequestEntityTooLarge)', () => {
    const wire = body();
    adoptWireBody(wire, MAX_REQUEST_BODY_BYTES + 1);
    const r = decodeBody(wire, configMaps);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.status).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
  });
});

describe('copyWithout', () => {
  it('copies every own key but the skipped ones, in the same order, as object rest does', () => {
    const o = { b: 1, resourceVersion: '7', a: { deep: true }, kind: 'Pod', z: undefined };
    const { resourceVersion: _rv, ...rest } = o;
    const copy = copyWithout(o, 'resourceVersion');
    expect(copy).toEqual(rest);
    expect(Object.keys(copy)).toEqual(['b', 'a', 'kind', 'z']);
    expect(copy.a).toBe(o.a);
    expect(Object.keys(copyWithout(o, 'kind', 'b'))).toEqual(['resourceVersion', 'a', 'z']);
    expect(copyWithout(Object.create({ inherited: 1 }) as object, 'x')).toEqual({});
  });

  it('storage text drops only resourceVersion', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', resourceVersion: '5', uid: 'u' }, spec: {} } as unknown as KubeObject;
    expect(encodeForStorage(pod)).toBe('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","uid":"u"},"spec":{}}');
  });
});

describe('storedTextOf: the stored text of a cached object, without encoding it again', () => {
  const cm = (data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', resourceVersion: '7' }, data } as KubeObject);

  it('is the text an API server wrote, for the object decoded from it', () => {
    const value = encodeForStorage(cm({ k: 'v' }));
    rememberWritten(900_001, value);
    const cached = decodeShared(value, 900_001)!;
    expect(storedTextOf(cached)).toBe(value);
    expect(encodeForStorage(cached)).toBe(value);
  });

  it('is undefined for a text written some other way (etcdctl), which is encoded as upstream does', () => {
    const foreign = '{ "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"} }';
    const cached = decodeShared(foreign, 900_002)!;
    expect(storedTextOf(cached)).toBeUndefined();
    // and for an object that is not the cache's one for that revision
    rememberWritten(900_003, encodeForStorage(cm({})));
    expect(storedTextOf({ ...cm({}), metadata: { name: 'a', namespace: 'ns', resourceVersion: '900003' } } as KubeObject)).toBeUndefined();
  });

  // replay a failure with FC_SEED=<seed> npm run test:unit -- runtime/apiserver/encoding
  const envSeed = Number((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FC_SEED);
  const seed = Number.isFinite(envSeed) ? envSeed : 20261202;
  it(`equals encoding the cached object again, for any written object (seed ${seed})`, () => {
    let rev = 910_000;
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.option(fc.string(), { nil: undefined }), (extra, rv) => {
      const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', ...(rv !== undefined ? { resourceVersion: rv } : {}), labels: { x: 'y' } }, ...extra } as KubeObject;
      const value = encodeForStorage(obj);
      rememberWritten(++rev, value);
      const cached = decodeShared(value, rev);
      if (cached === undefined) return;
      expect(storedTextOf(cached)).toBe(encodeForStorage(cached));
    }), { seed, numRuns: 300 });
  });
});
