import { describe, expect, it } from 'vitest';
import { RESOURCES, type KubeObject } from '../api/index.ts';
import { adoptWireBody, copyWithout, decodeBody, encodeForStorage, MAX_REQUEST_BODY_BYTES } from './encoding.ts';

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
