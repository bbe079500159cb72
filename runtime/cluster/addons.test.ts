// The addon manifests: what kubeadm and kind install, and that the API server accepts them as is.
import { describe, expect, it } from 'vitest';
import { defaultObject, validateObject, type DaemonSet } from '../api/index.ts';
import { nodeShouldRunDaemonPod } from '../controllers/index.ts';
import { addonObjects, addonsReady, kindnetDaemonSet, kubeProxyDaemonSet, KINDNET_IMAGE, KUBE_PROXY_IMAGE } from './addons.ts';
import { nodeObject } from './nodes.ts';
import { planCluster } from './options.ts';

describe('addon manifests', () => {
  it('kube-proxy is kubeadm\'s DaemonSet', () => {
    const ds = kubeProxyDaemonSet();
    expect(ds.metadata).toMatchObject({ name: 'kube-proxy', namespace: 'kube-system', labels: { 'k8s-app': 'kube-proxy' } });
    expect(ds.spec.template.spec).toMatchObject({
      hostNetwork: true, priorityClassName: 'system-node-critical', serviceAccountName: 'kube-proxy', tolerations: [{ operator: 'Exists' }],
    });
    expect(ds.spec.template.spec.containers[0]?.image).toBe(KUBE_PROXY_IMAGE);
  });

  it('kindnet is kind\'s CNI agent', () => {
    const ds = kindnetDaemonSet();
    expect(ds.spec.selector).toEqual({ matchLabels: { app: 'kindnet' } });
    expect(ds.spec.template.spec).toMatchObject({ hostNetwork: true, serviceAccountName: 'kindnet', tolerations: [{ operator: 'Exists' }] });
    expect(ds.spec.template.spec.containers[0]?.image).toBe(KINDNET_IMAGE);
  });

  it('every object passes API validation after defaulting', () => {
    for (const o of addonObjects()) {
      const body = defaultObject(o.body);
      expect(validateObject(body), `${o.resource}/${o.body.metadata.name}`).toEqual([]);
    }
  });

  it('service accounts and RBAC come before the DaemonSets that use them', () => {
    const order = addonObjects().map((o) => `${o.resource}/${o.body.metadata.name}`);
    expect(order.indexOf('serviceaccounts/kube-proxy')).toBeLessThan(order.indexOf('daemonsets/kube-proxy'));
    expect(order.indexOf('serviceaccounts/kindnet')).toBeLessThan(order.indexOf('daemonsets/kindnet'));
  });

  it('both run on control-plane nodes despite their NoSchedule taint, in every topology', () => {
    for (const topology of ['single-node', 'ha', 'managed'] as const) {
      for (const m of planCluster({ topology, workers: 1 }).machines.filter((x) => x.visible)) {
        const node = nodeObject(m, 0);
        for (const ds of [kubeProxyDaemonSet(), kindnetDaemonSet()]) {
          expect(nodeShouldRunDaemonPod(node, ds), `${topology} ${m.name} ${ds.metadata.name}`).toEqual({ shouldRun: true, shouldContinueRunning: true });
        }
      }
    }
  });
});

describe('addonsReady', () => {
  const ds = (name: string, desired: number, ready: number, updated = ready): DaemonSet =>
    ({ metadata: { name }, spec: {}, status: { desiredNumberScheduled: desired, numberReady: ready, updatedNumberScheduled: updated, currentNumberScheduled: desired, numberMisscheduled: 0 } }) as DaemonSet;

  it('needs both DaemonSets ready on every node', () => {
    expect(addonsReady([ds('kube-proxy', 3, 3), ds('kindnet', 3, 3)], 3)).toBe(true);
    expect(addonsReady([ds('kube-proxy', 3, 3), ds('kindnet', 3, 2)], 3)).toBe(false);
    expect(addonsReady([ds('kube-proxy', 3, 3)], 3)).toBe(false);
    expect(addonsReady([ds('kube-proxy', 2, 2), ds('kindnet', 2, 2)], 3)).toBe(false);
  });
});
