// PATCH through the API server's handler with each Content-Type: strategic merge patch merges
// containers by name, JSON merge patch replaces the list, JSON Patch edits by pointer; the
// failures carry upstream's codes (415 for an unknown type, 400 for a malformed patch, 422 for a
// JSON Patch operation that does not apply, 500 for a strategic merge error upstream does not map).
import { describe, expect, it } from 'vitest';
import type { Deployment, KubeObject, Status } from '../../api/index.ts';
import type { PatchType } from '../request.ts';
import { createHarness } from '../testing/harness.ts';
import { applyPatch } from './strategic-merge-patch.ts';

const deployment = {
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }, { name: 'log', image: 'fluentd' }] },
    },
  },
};

function withDeployment(): { h: ReturnType<typeof createHarness>; patch: (patchType: PatchType | undefined, body: unknown) => { code: number; body: unknown } } {
  const h = createHarness();
  expect(h.admin({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default', body: deployment }).code).toBe(201);
  const patch = (patchType: PatchType | undefined, body: unknown): { code: number; body: unknown } =>
    h.admin({ verb: 'patch', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', body, ...(patchType ? { patchType } : {}) });
  return { h, patch };
}

const images = (body: unknown): string[] => (body as Deployment).spec.template.spec.containers.map((c) => `${c.name}=${c.image}`);

describe('PATCH by Content-Type', () => {
  it('strategic merge patch merges containers by name (the other container stays)', () => {
    const { patch } = withDeployment();
    const r = patch('application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } });
    expect(r.code).toBe(200);
    expect(images(r.body)).toEqual(['web=nginx:1.28', 'log=fluentd']);
    expect((r.body as KubeObject).metadata.generation).toBe(2);
  });

  it('JSON merge patch replaces the list whole', () => {
    const { patch } = withDeployment();
    const r = patch('application/merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } });
    expect(r.code).toBe(200);
    expect(images(r.body)).toEqual(['web=nginx:1.28']);
  });

  it('JSON Patch edits by pointer', () => {
    const { patch } = withDeployment();
    const r = patch('application/json-patch+json', [{ op: 'replace', path: '/spec/template/spec/containers/1/image', value: 'fluent-bit' }]);
    expect(r.code).toBe(200);
    expect(images(r.body)).toEqual(['web=nginx:1.27', 'log=fluent-bit']);
  });

  it('$patch: delete removes one container; the result is validated like any update', () => {
    const { patch } = withDeployment();
    const r = patch('application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'log', $patch: 'delete' }] } } } });
    expect(images(r.body)).toEqual(['web=nginx:1.27']);
    const none = patch('application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'web', $patch: 'delete' }] } } } });
    expect(none.code).toBe(422);
    expect((none.body as Status).message).toContain('spec.template.spec.containers: Required value');
  });

  it('an unknown Content-Type is a 415 naming the accepted ones', () => {
    const { patch } = withDeployment();
    const r = patch('application/apply-patch+yaml' as PatchType, { spec: {} });
    expect(r.code).toBe(415);
    expect(r.body).toMatchObject({
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
    });
  });

  it('a JSON Patch operation that does not apply is a 422 without the operation text (NewGenericServerResponse)', () => {
    const { h, patch } = withDeployment();
    const before = h.admin({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' }).body as KubeObject;
    const r = patch('application/json-patch+json', [{ op: 'test', path: '/spec/replicas', value: 7 }]);
    expect(r.code).toBe(422);
    expect(r.body).toMatchObject({ reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
    const after = h.admin({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' }).body as KubeObject;
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('a malformed strategic patch is a 400 or, for errors upstream does not map, a 500', () => {
    const { patch } = withDeployment();
    const badOrder = patch('application/strategic-merge-patch+json', { spec: { template: { spec: { '$setElementOrder/containers': 'x' } } } });
    expect(badOrder.code).toBe(400);
    expect((badOrder.body as Status).message).toBe('invalid patch format of setElementOrder list');
    const noKey = patch('application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ image: 'x' }] } } } });
    expect(noKey.code).toBe(500);
    expect((noKey.body as Status).message).toBe('map: map[image:x] does not contain declared merge key: name');
  });

  it('a JSON list body for a merge patch is a 400', () => {
    const { patch } = withDeployment();
    expect(patch('application/merge-patch+json', [{ op: 'add' }]).code).toBe(400);
  });

  it('a patch without a Content-Type (in-process callers) is a merge patch', () => {
    const { patch } = withDeployment();
    expect(images(patch(undefined, { spec: { template: { spec: { containers: [{ name: 'x', image: 'y' }] } } } }).body)).toEqual(['x=y']);
  });
});

describe('applyPatch', () => {
  it('uses the tags of the kind: a ConfigMap has none of its own and merges like merge patch', () => {
    const r = applyPatch('application/strategic-merge-patch+json', { data: { a: '1' } }, { data: { b: '2' } }, 'ConfigMap');
    expect(r).toEqual({ ok: true, object: { data: { a: '1', b: '2' } } });
  });
});
