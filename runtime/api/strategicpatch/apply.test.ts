// Table tests for applying strategic merge patches, adapted from the cases of upstream's
// staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch_test.go (mergeItem / mergeItems /
// mergingList / retainKeys / setElementOrder cases), restated on real API fields (PodSpec
// containers merge by name, Container ports by containerPort, ObjectMeta finalizers as a set,
// volumes with retainKeys, tolerations atomic).
import { describe, expect, it } from 'vitest';
import { strategicMergePatch } from './apply.ts';

interface Case {
  name: string;
  structType: string;
  original: Record<string, unknown>;
  patch: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: string;
}

const c = (name: string, image = 'nginx'): Record<string, unknown> => ({ name, image });

const CASES: Case[] = [
  {
    name: 'maps merge key by key, null deletes, a scalar replaces',
    structType: 'Pod',
    original: { metadata: { labels: { a: '1', b: '2' } }, spec: { nodeName: 'n1' } },
    patch: { metadata: { labels: { a: null, c: '3' } }, spec: { nodeName: 'n2' } },
    result: { metadata: { labels: { b: '2', c: '3' } }, spec: { nodeName: 'n2' } },
  },
  {
    name: 'a null for an absent key is dropped (IgnoreUnmatchedNulls)',
    structType: 'Pod',
    original: { metadata: { labels: { a: '1' } } },
    patch: { metadata: { annotations: null } },
    result: { metadata: { labels: { a: '1' } } },
  },
  {
    // without $setElementOrder, normalizeElementOrder puts the patch's items first whenever a
    // server-only item cannot be placed before them by the live order (new items have no live place)
    name: 'containers merge by name: a matched item merges, a new one joins the patch items ahead of server-only ones',
    structType: 'Pod',
    original: { spec: { containers: [c('web'), c('sidecar', 'busybox')] } },
    patch: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }, c('log', 'fluentd')] } },
    result: { spec: { containers: [c('web', 'nginx:1.27'), c('log', 'fluentd'), c('sidecar', 'busybox')] } },
  },
  {
    name: 'the same patch on a Deployment reaches spec.template.spec.containers',
    structType: 'Deployment',
    original: { spec: { template: { spec: { containers: [c('web'), c('sidecar')] } } } },
    patch: { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } } },
    result: { spec: { template: { spec: { containers: [c('web'), c('sidecar', 'envoy')] } } } },
  },
  {
    name: 'nested merge lists: env by name and ports by containerPort inside a container',
    structType: 'Pod',
    original: { spec: { containers: [{ name: 'web', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80, name: 'http' }] }] } },
    patch: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }], ports: [{ containerPort: 80, protocol: 'TCP' }] }] } },
    result: {
      spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }, { name: 'A', value: '1' }], ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }] }] },
    },
  },
  {
    name: '$patch: delete in a list item removes the matching item',
    structType: 'Pod',
    original: { spec: { containers: [c('web'), c('sidecar')] } },
    patch: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } },
    result: { spec: { containers: [c('web')] } },
  },
  {
    name: '$patch: replace in a list item replaces the whole list with the other items',
    structType: 'Pod',
    original: { spec: { containers: [c('web'), c('sidecar')] } },
    patch: { spec: { containers: [c('only'), { $patch: 'replace' }] } },
    result: { spec: { containers: [c('only')] } },
  },
  {
    name: '$patch: replace in a map replaces the map (the DaemonSet rollback patch)',
    structType: 'DaemonSet',
    original: { spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b', x: 'y' } }, spec: { containers: [c('web', 'v2')] } } } },
    patch: { spec: { template: { $patch: 'replace', metadata: { labels: { a: 'b' } }, spec: { containers: [c('web', 'v1')] } } } },
    result: { spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [c('web', 'v1')] } } } },
  },
  {
    name: '$patch: delete in a map removes its content',
    structType: 'Pod',
    original: { spec: { securityContext: { runAsUser: 1000 }, nodeName: 'n1' } },
    patch: { spec: { securityContext: { $patch: 'delete' } } },
    result: { spec: { securityContext: {}, nodeName: 'n1' } },
  },
  {
    name: 'an unknown $patch directive in a map is refused',
    structType: 'Pod',
    original: { spec: {} },
    patch: { spec: { $patch: 'frobnicate', nodeName: 'x' } },
    error: 'unknown patch type: frobnicate in map: map[$patch:frobnicate nodeName:x]',
  },
  {
    name: 'a merge list item without its merge key is refused',
    structType: 'Pod',
    original: { spec: { containers: [c('web')] } },
    patch: { spec: { containers: [{ image: 'x' }] } },
    error: 'map: map[image:x] does not contain declared merge key: name',
  },
  {
    name: 'finalizers (patchStrategy merge on strings) are a set union',
    structType: 'Pod',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['b', 'c'] } },
    result: { metadata: { finalizers: ['a', 'b', 'c'] } },
  },
  {
    name: '$deleteFromPrimitiveList removes strings from a merging list',
    structType: 'Pod',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    result: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: 'a deletion list for an absent field changes nothing',
    structType: 'Pod',
    original: { metadata: { name: 'p' } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    result: { metadata: { name: 'p' } },
  },
  {
    name: 'tolerations have no patch tags: the list is replaced whole',
    structType: 'Pod',
    original: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } },
    patch: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
    result: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
  },
  {
    name: 'args (untagged list of strings) is replaced, not merged',
    structType: 'Pod',
    original: { spec: { containers: [{ name: 'web', args: ['a', 'b'] }] } },
    patch: { spec: { containers: [{ name: 'web', args: ['c'] }] } },
    result: { spec: { containers: [{ name: 'web', args: ['c'] }] } },
  },
  {
    name: 'pod conditions merge by type',
    structType: 'Pod',
    original: { status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }] } },
    patch: { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
    result: { status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }] } },
  },
  {
    name: 'ownerReferences merge by uid',
    structType: 'ReplicaSet',
    original: { metadata: { ownerReferences: [{ uid: 'u1', name: 'd1' }] } },
    patch: { metadata: { ownerReferences: [{ uid: 'u2', name: 'd2' }] } },
    result: { metadata: { ownerReferences: [{ uid: 'u2', name: 'd2' }, { uid: 'u1', name: 'd1' }] } },
  },
  {
    name: 'service ports merge by port',
    structType: 'Service',
    original: { spec: { ports: [{ port: 80, targetPort: 8080 }] } },
    patch: { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
    result: { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
  },
  {
    name: 'kinds without tags of their own (ConfigMap) merge like a JSON merge patch',
    structType: 'ConfigMap',
    original: { data: { a: '1', b: '2' } },
    patch: { data: { a: null, c: '3' } },
    result: { data: { b: '2', c: '3' } },
  },
  {
    name: '$setElementOrder orders the patch items; a server-only item goes before the first one it precedes live',
    structType: 'Pod',
    original: { spec: { containers: [c('a'), c('b'), c('server-only'), c('c')] } },
    patch: { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'b' }, { name: 'a' }], containers: [c('c', 'new')] } },
    result: { spec: { containers: [c('server-only'), c('c', 'new'), c('b'), c('a')] } },
  },
  {
    name: '$setElementOrder on strings orders a primitive merge list',
    structType: 'Pod',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'], finalizers: ['c'] } },
    result: { metadata: { finalizers: ['c', 'b', 'a'] } },
  },
  {
    name: 'a patch list out of the $setElementOrder order is refused',
    structType: 'Pod',
    original: { spec: { containers: [c('a'), c('b')] } },
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [c('b'), c('a')] } },
    error: "The order in patch list:\n[map[image:nginx name:b] map[image:nginx name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n",
  },
  {
    name: '$retainKeys clears the fields it does not name (a volume switching source)',
    structType: 'Pod',
    original: { spec: { volumes: [{ name: 'v', emptyDir: {} }] } },
    patch: { spec: { volumes: [{ name: 'v', $retainKeys: ['hostPath', 'name'], hostPath: { path: '/data' } }] } },
    result: { spec: { volumes: [{ name: 'v', hostPath: { path: '/data' } }] } },
  },
  {
    name: '$retainKeys on the deployment strategy (patchStrategy retainKeys) drops rollingUpdate',
    structType: 'Deployment',
    original: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    result: { spec: { strategy: { type: 'Recreate' } } },
  },
  {
    name: 'a field missing from $retainKeys is refused',
    structType: 'Deployment',
    original: { spec: { strategy: { type: 'RollingUpdate' } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 2 } } } },
    error: 'invalid patch format of retainKeys',
  },
  {
    name: 'lists of lists are refused',
    structType: 'Pod',
    original: { metadata: { finalizers: [['a']] } },
    patch: { metadata: { finalizers: [['b']] } },
    error: 'lists of lists are not supported',
  },
  {
    name: 'a value of another type replaces the field',
    structType: 'Pod',
    original: { spec: { containers: [c('web')] } },
    patch: { spec: { containers: 'oops' } },
    result: { spec: { containers: 'oops' } },
  },
];

describe('strategicMergePatch', () => {
  for (const t of CASES) {
    it(t.name, () => {
      const original = JSON.parse(JSON.stringify(t.original)) as Record<string, unknown>;
      const patch = JSON.parse(JSON.stringify(t.patch)) as Record<string, unknown>;
      const r = strategicMergePatch(original, patch, t.structType);
      if (t.error !== undefined) expect(r).toMatchObject({ ok: false, error: t.error });
      else expect(r).toEqual({ ok: true, value: t.result });
      // neither input is modified
      expect(original).toEqual(t.original);
      expect(patch).toEqual(t.patch);
    });
  }
});
