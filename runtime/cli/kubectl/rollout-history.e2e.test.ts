// rollout history and undo of a DaemonSet on a whole simulated cluster: the DaemonSet controller
// records each template as a ControllerRevision (with the DaemonSet's change-cause), kubectl reads
// them back, and an undo rolls the pods back to the old image while the old revision is
// renumbered to the newest (pkg/controller/daemon/update.go constructHistory).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/index.ts';
import { createCluster, type Cluster } from '../../cluster/index.ts';

const agent = (image: string, cause: string): string => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  annotations: { kubernetes.io/change-cause: '${cause}' }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      containers: [{ name: agent, image: '${image}' }]
`;

async function ok(cluster: Cluster, args: string, stdin?: string): Promise<string> {
  const r = await cluster.kubectl(args, stdin === undefined ? undefined : { stdin });
  expect(r.stderr).toBe('');
  return r.stdout;
}

/** True once every agent pod is Ready on `image`, one per node (the single-node control plane is untainted). */
async function agentsRun(cluster: Cluster, image: string): Promise<boolean> {
  const pods = (JSON.parse(await ok(cluster, 'get pods -l app=agent -o json')) as { items: Pod[] })
    .items;
  return (
    pods.length === 2 &&
    pods.every(
      (p) =>
        !p.metadata.deletionTimestamp &&
        p.spec.containers[0]?.image === image &&
        (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    )
  );
}

async function settle(cluster: Cluster, check: () => Promise<boolean>): Promise<boolean> {
  for (let waitedMs = 0; waitedMs <= 90_000; waitedMs += 1000) {
    if (await check()) return true;
    await cluster.advance(1000);
  }
  return false;
}

describe('kubectl rollout history/undo daemonset end to end', () => {
  it('lists two revisions after an image change, and undo rolls the pods back', async () => {
    const cluster = createCluster({ seed: 11, topology: 'single-node', workers: 1 });
    await ok(cluster, 'apply -f -', agent('nginx:1.27', 'first'));
    expect(await settle(cluster, () => agentsRun(cluster, 'nginx:1.27'))).toBe(true);
    await ok(cluster, 'apply -f -', agent('nginx:1.28', 'move to 1.28'));
    expect(await settle(cluster, () => agentsRun(cluster, 'nginx:1.28'))).toBe(true);

    expect(await ok(cluster, 'rollout history ds/agent')).toBe(
      'daemonset.apps/agent \nREVISION  CHANGE-CAUSE\n1         first\n2         move to 1.28\n\n',
    );
    expect(await ok(cluster, 'rollout history ds/agent --revision=1')).toContain(
      '    Image:         nginx:1.27\n',
    );

    expect(await ok(cluster, 'rollout undo ds/agent')).toBe('daemonset.apps/agent rolled back\n');
    expect(await settle(cluster, () => agentsRun(cluster, 'nginx:1.27'))).toBe(true);
    // the controller renumbers the old revision to the newest; it keeps its own change-cause
    expect(await ok(cluster, 'rollout history ds/agent')).toBe(
      'daemonset.apps/agent \nREVISION  CHANGE-CAUSE\n2         move to 1.28\n3         first\n\n',
    );
    expect(await ok(cluster, 'rollout undo ds/agent --to-revision=3')).toBe(
      'daemonset.apps/agent skipped rollback (current template already matches revision 3)\n',
    );
  });
});
