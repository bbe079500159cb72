// JSON Patch (RFC 6902) table tests: the RFC's appendix A examples restated on API objects, and the
// Deployment rollback patch kubectl rollout undo sends (polymorphichelpers/rollback.go).
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch.ts';
import { createMergePatch } from './merge-diff.ts';

type J = Record<string, unknown>;

const CASES: { name: string; doc: J; patch: unknown; result?: J; error?: string; kind?: string }[] = [
  {
    name: 'add a map member, replace a value, remove a member',
    doc: { metadata: { labels: { a: '1', b: '2' } }, spec: { replicas: 1 } },
    patch: [
      { op: 'add', path: '/metadata/labels/c', value: '3' },
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'remove', path: '/metadata/labels/a' },
    ],
    result: { metadata: { labels: { b: '2', c: '3' } }, spec: { replicas: 3 } },
  },
  {
    name: 'add into an array at an index and with "-" (append)',
    doc: { spec: { args: ['a', 'c'] } },
    patch: [
      { op: 'add', path: '/spec/args/1', value: 'b' },
      { op: 'add', path: '/spec/args/-', value: 'd' },
    ],
    result: { spec: { args: ['a', 'b', 'c', 'd'] } },
  },
  {
    name: 'JSON Pointer escapes: ~1 is "/" and ~0 is "~"',
    doc: { metadata: { annotations: {} } },
    patch: [{ op: 'add', path: '/metadata/annotations/example.com~1a~0b', value: 'x' }],
    result: { metadata: { annotations: { 'example.com/a~b': 'x' } } },
  },
  {
    name: 'move and copy',
    doc: { metadata: { labels: { a: '1' } } },
    patch: [
      { op: 'copy', from: '/metadata/labels/a', path: '/metadata/labels/b' },
      { op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/c' },
    ],
    result: { metadata: { labels: { b: '1', c: '1' } } },
  },
  {
    name: 'a passing test changes nothing',
    doc: { spec: { replicas: 2 } },
    patch: [{ op: 'test', path: '/spec/replicas', value: 2 }],
    result: { spec: { replicas: 2 } },
  },
  {
    name: 'a failing test fails the whole patch (422)',
    doc: { spec: { replicas: 2 } },
    patch: [
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'test', path: '/spec/replicas', value: 2 },
    ],
    error: 'testing value /spec/replicas failed: test failed',
    kind: 'invalid',
  },
  {
    name: 'replace of a missing key fails',
    doc: { spec: {} },
    patch: [{ op: 'replace', path: '/spec/paused', value: true }],
    error: 'replace operation does not apply: doc is missing key: /spec/paused',
    kind: 'invalid',
  },
  {
    name: 'remove of a missing path fails',
    doc: { spec: {} },
    patch: [{ op: 'remove', path: '/spec/paused' }],
    error: 'remove operation does not apply: doc is missing path: "/spec/paused"',
    kind: 'invalid',
  },
  {
    name: 'a body that is not a list is a 400',
    doc: {},
    patch: { op: 'add' },
    error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    kind: 'bad-request',
  },
  {
    name: 'the Deployment rollback patch replaces the template and the annotations whole',
    doc: {
      metadata: { annotations: { 'deployment.kubernetes.io/revision': '2', note: 'x' } },
      spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'v2', env: [{ name: 'A', value: '1' }] }] } } },
    },
    patch: [
      { op: 'replace', path: '/spec/template', value: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'v1' }] } } },
      { op: 'replace', path: '/metadata/annotations', value: { 'deployment.kubernetes.io/revision': '2' } },
    ],
    result: {
      metadata: { annotations: { 'deployment.kubernetes.io/revision': '2' } },
      spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'v1' }] } } },
    },
  },
];

describe('applyJsonPatch', () => {
  for (const t of CASES) {
    it(t.name, () => {
      const before = JSON.stringify(t.doc);
      const r = applyJsonPatch(t.doc, t.patch);
      if (t.error !== undefined) expect(r).toEqual({ ok: false, error: t.error, kind: t.kind });
      else expect(r).toEqual({ ok: true, value: t.result });
      expect(JSON.stringify(t.doc)).toBe(before);
    });
  }
});

describe('createMergePatch', () => {
  it('sends changed keys, null for removed ones, nested maps key by key and lists whole', () => {
    const a = { metadata: { labels: { a: '1', b: '2' }, name: 'x' }, spec: { args: ['p', 'q'] } };
    const b = { metadata: { labels: { a: '1', c: '3' }, name: 'x' }, spec: { args: ['p'] } };
    const patch = createMergePatch(a, b);
    expect(patch).toEqual({ metadata: { labels: { b: null, c: '3' } }, spec: { args: ['p'] } });
    expect(createMergePatch(a, a)).toEqual({});
  });
});
