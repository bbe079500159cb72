import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import {
  CONFIG_HASH_ANNOTATION, CONFIG_MIRROR_ANNOTATION, CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION, crashLoopBackoffMs, isCurrentMirrorOf,
  isMirrorPod, mirrorPodOf, staticPodFromManifest, staticPodStatus, type StaticContainerState,
} from './static-pods.ts';
import { overwrittenByOthers } from './status-writes.ts';

const manifest = {
  file: 'kube-apiserver.yaml',
  pod: {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'kube-apiserver', namespace: 'kube-system', labels: { component: 'kube-apiserver', tier: 'control-plane' } },
    spec: { hostNetwork: true, containers: [{ name: 'kube-apiserver', image: 'registry.k8s.io/kube-apiserver:v1.33.0' }] },
  } as Pod,
};

describe('staticPodFromManifest (config/common.go applyDefaults)', () => {
  const pod = staticPodFromManifest(manifest, 'CP-1', 6021);
  it('names it <name>-<node>, binds it to the node and hashes the manifest into its uid', () => {
    expect(pod.metadata.name).toBe('kube-apiserver-cp-1');
    expect(pod.spec.nodeName).toBe('CP-1');
    expect(pod.metadata.uid).toMatch(/^[0-9a-f]{32}$/);
    expect(pod.metadata.annotations).toMatchObject({
      [CONFIG_HASH_ANNOTATION]: pod.metadata.uid,
      [CONFIG_SOURCE_ANNOTATION]: 'file',
      [CONFIG_SEEN_ANNOTATION]: '2026-01-01T00:00:06.021Z',
    });
  });
  it('tolerates every NoExecute taint, so node problems never evict it', () => {
    expect(pod.spec.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute' }]);
  });
  it('gets the same uid whenever it is read, and another one when the manifest changes', () => {
    expect(staticPodFromManifest(manifest, 'CP-1', 99_000).metadata.uid).toBe(pod.metadata.uid);
    const edited = { ...manifest, pod: { ...manifest.pod, spec: { ...manifest.pod.spec, priority: 1 } } };
    expect(staticPodFromManifest(edited, 'CP-1', 6021).metadata.uid).not.toBe(pod.metadata.uid);
    expect(staticPodFromManifest(manifest, 'cp-2', 6021).metadata.uid).not.toBe(pod.metadata.uid);
  });
  it('leaves the manifest alone', () => {
    expect(manifest.pod.metadata.name).toBe('kube-apiserver');
    expect(manifest.pod.spec.nodeName).toBeUndefined();
  });
});

describe('mirrorPodOf and isCurrentMirrorOf (mirror_client.go, IsMirrorPodOf)', () => {
  const staticPod = staticPodFromManifest(manifest, 'cp-1', 0);
  const mirror = mirrorPodOf(staticPod, { name: 'cp-1', uid: 'node-uid' });
  it('carries the hash in config.mirror, is owned by the Node and has no uid of its own', () => {
    expect(mirror.metadata.uid).toBeUndefined();
    expect(mirror.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION]).toBe(staticPod.metadata.uid);
    expect(mirror.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'cp-1', uid: 'node-uid', controller: true }]);
    expect(isMirrorPod(mirror)).toBe(true);
    expect(isMirrorPod(staticPod)).toBe(false);
  });
  it.each<[string, Pod, boolean]>([
    ['the mirror as created', { ...mirror, metadata: { ...mirror.metadata, uid: 'server-uid' } }, true],
    ['being deleted', { ...mirror, metadata: { ...mirror.metadata, deletionTimestamp: '2026-01-01T00:00:09Z' } }, false],
    ['of an older manifest', { ...mirror, metadata: { ...mirror.metadata, annotations: { [CONFIG_MIRROR_ANNOTATION]: 'old-hash' } } }, false],
  ])('%s -> %s', (_name, candidate, current) => {
    expect(isCurrentMirrorOf(candidate, staticPod)).toBe(current);
  });
});

describe('crashLoopBackoffMs (10 s doubling to 5 min)', () => {
  it.each([[0, 10_000], [9_999, 10_000], [10_000, 20_000], [29_999, 20_000], [30_000, 40_000], [70_000, 80_000], [1_000_000, 300_000]])(
    '%i ms after the exit -> %i', (downMs, windowMs) => expect(crashLoopBackoffMs(downMs)).toBe(windowMs));
});

describe('staticPodStatus: the process behind the container, seen as a kubelet reports a container', () => {
  const staticPod = staticPodFromManifest(manifest, 'cp-1', 0);
  const mirror = { ...mirrorPodOf(staticPod, { name: 'cp-1', uid: 'n' }), metadata: { ...mirrorPodOf(staticPod, { name: 'cp-1', uid: 'n' }).metadata, uid: 'm' } };
  const status = (s: StaticContainerState, nowMs: number) => staticPodStatus(mirror, staticPod, s, '192.168.49.2', nowMs);

  it('up and serving: Running, ready, the node IP as pod IP (hostNetwork)', () => {
    const st = status({ running: true, ready: true, restartCount: 0, startedAtMs: 0 }, 5000);
    expect(st).toMatchObject({ phase: 'Running', podIP: '192.168.49.2', hostIP: '192.168.49.2', qosClass: 'BestEffort' });
    expect(st.containerStatuses?.[0]).toMatchObject({ name: 'kube-apiserver', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } }, image: 'registry.k8s.io/kube-apiserver:v1.33.0' });
    expect(st.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });
  it('up but not serving yet: running, not ready', () => {
    const st = status({ running: true, ready: false, restartCount: 0, startedAtMs: 0 }, 5000);
    expect(st.containerStatuses?.[0]).toMatchObject({ ready: false, state: { running: {} } });
    expect(st.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
  });
  it('killed: CrashLoopBackOff with the killed instance (137) as lastState, phase still Running', () => {
    const st = status({ running: false, ready: false, restartCount: 0, startedAtMs: 0, finishedAtMs: 7000 }, 22_000);
    expect(st.phase).toBe('Running');
    const cs = st.containerStatuses?.[0];
    expect(cs?.state?.waiting).toEqual({ reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=kube-apiserver pod=kube-apiserver-cp-1_kube-system(${staticPod.metadata.uid ?? ''})` });
    expect(cs?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error', finishedAt: '2026-01-01T00:00:07Z' });
    expect(cs?.ready).toBe(false);
  });
  it('back after a restart: a new container id, restartCount 1, lastState the one that died', () => {
    const before = status({ running: true, ready: true, restartCount: 0, startedAtMs: 0 }, 5000).containerStatuses?.[0];
    const after = status({ running: true, ready: true, restartCount: 1, startedAtMs: 9000, previous: { startedAtMs: 0, finishedAtMs: 7000 } }, 10_000).containerStatuses?.[0];
    expect(after?.restartCount).toBe(1);
    expect(after?.containerID).not.toBe(before?.containerID);
    expect(after?.lastState?.terminated).toMatchObject({ exitCode: 137, containerID: before?.containerID, finishedAt: '2026-01-01T00:00:07Z' });
  });
});

describe('overwrittenByOthers (a Ready=False written by the node lifecycle controller)', () => {
  const ready = (s: 'True' | 'False') => ({ conditions: [{ type: 'Ready', status: s }] });
  const written = { text: '', status: ready('True'), resourceVersion: '40' };
  const pod = (rv: string, s: 'True' | 'False') => ({ metadata: { resourceVersion: rv }, spec: { containers: [] }, status: ready(s) }) as Pod;
  it.each<[string, Pod, boolean]>([
    ['an older copy than our write (the informer lags)', pod('39', 'False'), false],
    ['our own write', pod('40', 'True'), false],
    ['a newer copy with Ready as we wrote it', pod('41', 'True'), false],
    ['a newer copy that someone marked not ready', pod('41', 'False'), true],
  ])('%s -> %s', (_name, p, verdict) => expect(overwrittenByOthers(p, written)).toBe(verdict));
  it('is false before we ever wrote', () => expect(overwrittenByOthers(pod('41', 'False'), undefined)).toBe(false));
});
