// Table tests of the quota controller's arithmetic: what objects count for (pkg/quota/v1/evaluator/core)
// and the status it writes (every hard name in used, zero when nothing counts for it).
import { describe, expect, it } from 'vitest';
import type { KubeObject, Pod, ResourceQuota } from '../../api/index.ts';
import { calculateStatus, sourceOf } from './usage.ts';

const pod = (name: string, extra: { phase?: string; cpu?: string; memLimit?: string; priorityClassName?: string } = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: {
    ...(extra.priorityClassName ? { priorityClassName: extra.priorityClassName } : {}),
    containers: [{ name: 'app', image: 'nginx', resources: { ...(extra.cpu ? { requests: { cpu: extra.cpu } } : {}), ...(extra.memLimit ? { limits: { memory: extra.memLimit } } : {}) } }],
  },
  ...(extra.phase ? { status: { phase: extra.phase } } : {}),
} as Pod);
const quota = (hard: Record<string, string>, spec: Partial<NonNullable<ResourceQuota['spec']>> = {}): ResourceQuota => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec: { hard, ...spec },
});
const lists = (byResource: Record<string, KubeObject[]>) => (group: string, resource: string): KubeObject[] => byResource[`${group}/${resource}`] ?? [];

describe('calculateStatus', () => {
  const pods = [pod('a', { cpu: '250m', memLimit: '128Mi' }), pod('b', { cpu: '500m', priorityClassName: 'high' }), pod('done', { cpu: '4', phase: 'Succeeded' })];
  it.each<[string, ResourceQuota, Record<string, KubeObject[]>, Record<string, string>]>([
    ['sums requests and limits of non-terminal pods', quota({ pods: '10', 'requests.cpu': '2', cpu: '2', 'limits.memory': '1Gi' }), { '/pods': pods },
      { cpu: '750m', 'limits.memory': '128Mi', pods: '2', 'requests.cpu': '750m' }],
    ['count/pods counts terminal pods too', quota({ 'count/pods': '10' }), { '/pods': pods }, { 'count/pods': '3' }],
    ['a PriorityClass scope counts only matching pods', quota({ pods: '2' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }), { '/pods': pods }, { pods: '1' }],
    ['a scoped quota never counts configmaps', quota({ configmaps: '2' }, { scopes: ['BestEffort'] }), { '/configmaps': [{ metadata: { name: 'x', namespace: 'default' } }] }, { configmaps: '0' }],
    ['count/<resource>.<group> of another group', quota({ 'count/deployments.apps': '3' }), { 'apps/deployments': [{ metadata: { name: 'd' } }] }, { 'count/deployments.apps': '1' }],
    ['nothing counted yet is zero', quota({ 'requests.memory': '1Gi', services: '5' }), {}, { 'requests.memory': '0', services: '0' }],
  ])('%s', (_name, q, objects, used) => {
    expect(calculateStatus(q, lists(objects))?.used).toEqual(used);
  });

  it('copies spec.hard into status.hard in canonical form', () => {
    expect(calculateStatus(quota({ 'requests.cpu': '1000m', pods: '2' }), lists({}))?.hard).toEqual({ 'requests.cpu': '1', pods: '2' });
  });

  it('waits (undefined) while a counted source is not listed yet', () => {
    expect(calculateStatus(quota({ pods: '2' }), () => undefined)).toBeUndefined();
  });
});

describe('sourceOf', () => {
  it.each<[string, { group: string; resource: string } | undefined]>([
    ['pods', { group: '', resource: 'pods' }],
    ['limits.memory', { group: '', resource: 'pods' }],
    ['services.nodeports', { group: '', resource: 'services' }],
    ['count/deployments.apps', { group: 'apps', resource: 'deployments' }],
    ['count/configmaps', { group: '', resource: 'configmaps' }],
    ['example.com/widgets', undefined],
  ])('%s', (name, want) => {
    expect(sourceOf(name)).toEqual(want);
  });
});
