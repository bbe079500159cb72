// Patches end to end through cluster.kubectl(): kubectl apply computes a three-way strategic merge
// patch (a container added by hand survives a re-apply; a container dropped from the file goes),
// kubectl patch sends each patch type to the API server, and rollout undo of a Deployment sends
// rollback.go's JSON patch, after which the controller rolls the pods back.
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../api/index.ts';
import { createCluster, type Cluster } from './index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

const web = (image: string, extraContainer = ''): string => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { app: web } }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - { name: web, image: '${image}' }${extraContainer}
`;

async function deployment(cluster: Cluster): Promise<Deployment> {
  return JSON.parse(await ok(cluster, 'get deployment web -o json')) as Deployment;
}

const containers = (d: Deployment): string[] => d.spec.template.spec.containers.map((c) => `${c.name}=${c.image}`);

describe('patches through the API server', { timeout: 60_000 }, () => {
  it('apply, patch and rollout undo', async () => {
    const cluster = createCluster({ seed: 5, topology: 'single-node' });
    expect(await ok(cluster, 'apply -f -', web('nginx:1.27', "\n      - { name: log, image: 'fluentd' }"))).toBe('deployment.apps/web created\n');
    expect(await ok(cluster, 'apply -f -', web('nginx:1.27', "\n      - { name: log, image: 'fluentd' }"))).toBe('deployment.apps/web unchanged\n');

    // someone adds a label and a container by hand; a strategic patch merges the container by name
    expect(await ok(cluster, `patch deployment web -p '{"metadata":{"labels":{"owner":"ops"}},"spec":{"template":{"spec":{"containers":[{"name":"debug","image":"busybox"}]}}}}'`)).toBe('deployment.apps/web patched\n');
    expect(containers(await deployment(cluster))).toEqual(['debug=busybox', 'web=nginx:1.27', 'log=fluentd']);

    // re-applying the file with a new image and without "log": the hand-made label and container
    // are not in the last-applied configuration, so they stay; "log" was, so it goes
    expect(await ok(cluster, 'apply -f -', web('nginx:1.28'))).toBe('deployment.apps/web configured\n');
    const applied = await deployment(cluster);
    expect(containers(applied)).toEqual(['debug=busybox', 'web=nginx:1.28']);
    expect(applied.metadata.labels).toEqual({ app: 'web', owner: 'ops' });

    // a JSON merge patch replaces the list whole; a JSON patch edits one field
    expect(await ok(cluster, `patch deployment web --type merge -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}'`)).toBe('deployment.apps/web patched\n');
    expect(containers(await deployment(cluster))).toEqual(['web=nginx:1.28']);
    expect(await ok(cluster, `patch deployment web --type json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`)).toBe('deployment.apps/web patched\n');
    const failed = await cluster.kubectl(`patch deployment web --type json -p '[{"op":"test","path":"/spec/replicas","value":9}]'`);
    expect(failed.stderr).toBe('error: The request is invalid\n');

    // once the controllers are done writing the Deployment's status, the same patch again changes
    // nothing: the object comes back as it was read (a status write in between would show "patched")
    await cluster.advance(5_000);
    expect(await ok(cluster, `patch deployment web --type json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`)).toBe('deployment.apps/web patched (no change)\n');

    // undo to the first template (the controller recorded one revision per template)
    expect(await ok(cluster, 'rollout undo deployment/web --to-revision=1')).toBe('deployment.apps/web rolled back\n');
    const undone = await deployment(cluster);
    expect(containers(undone)).toEqual(['web=nginx:1.27', 'log=fluentd']);
    expect(undone.spec.template.metadata?.labels).toEqual({ app: 'web' });
  });
});
