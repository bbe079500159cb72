// rollout history and undo for DaemonSets (ControllerRevisions) and Deployments (ReplicaSets)
// against the in-memory fake API server: exact transcripts, and which revision undo picks.
import { describe, expect, it } from 'vitest';
import type {
  ControllerRevision,
  DaemonSet,
  Deployment,
  KubeObject,
  PodTemplateSpec,
  ReplicaSet,
} from '../../api/index.ts';
import type { KubectlResult } from './context.ts';
import { FakeTransport } from './fake-transport.ts';
import { runKubectl } from './kubectl.ts';
import { DAEMONSET_HISTORY, undoTarget, type Revision } from './rollout-history.ts';

function kubectl(t: FakeTransport, line: string): KubectlResult {
  let result: KubectlResult | undefined;
  runKubectl(line, t, { nowMs: 0 }, (r) => (result = r));
  if (!result) throw new Error('kubectl did not finish synchronously with the fake transport');
  return result;
}

const template = (app: string, image: string): PodTemplateSpec => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: app, image }] },
});

const controllerRef = (kind: string, owner: KubeObject) => ({
  apiVersion: 'apps/v1',
  kind,
  name: owner.metadata.name ?? '',
  uid: owner.metadata.uid ?? '',
  controller: true,
});

/** A DaemonSet running `image`, and one ControllerRevision per [revision, image, change-cause]. */
function daemonSet(image: string, history: [number, string, string?][]): FakeTransport {
  const t = new FakeTransport();
  const ds = t.seed('apps', 'daemonsets', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent', image) },
  } as DaemonSet);
  for (const [revision, revImage, cause] of history) {
    t.seed('apps', 'controllerrevisions', {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `agent-${revision}`,
        namespace: 'default',
        labels: { app: 'agent', 'controller-revision-hash': `h${revision}` },
        ...(cause ? { annotations: { 'kubernetes.io/change-cause': cause } } : {}),
        ownerReferences: [controllerRef('DaemonSet', ds)],
      },
      data: { spec: { template: { ...template('agent', revImage), $patch: 'replace' } } },
      revision,
    } as ControllerRevision);
  }
  return t;
}

const dsImage = (t: FakeTransport): string | undefined =>
  (t.objects.get('apps/daemonsets/default/agent') as DaemonSet).spec.template.spec.containers[0]
    ?.image;

describe('rollout history daemonset', () => {
  it('lists the revisions the DaemonSet controls, sorted, with their change-cause', () => {
    const t = daemonSet('nginx:1.28', [
      [3, 'nginx:1.28', 'kubectl set image ds/agent agent=nginx:1.28'],
      [1, 'nginx:1.26'],
    ]);
    t.seed('apps', 'controllerrevisions', {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'stranger-1', namespace: 'default', labels: { app: 'agent' } },
      data: { spec: { template: template('agent', 'busybox') } },
      revision: 2,
    } as ControllerRevision);
    expect(kubectl(t, 'rollout history ds/agent')).toEqual({
      stdout:
        'daemonset.apps/agent \n' +
        'REVISION  CHANGE-CAUSE\n' +
        '1         <none>\n' +
        '3         kubectl set image ds/agent agent=nginx:1.28\n\n',
      stderr: '',
      exitCode: 0,
    });
  });
  it('--revision=N describes that revision\'s pod template', () => {
    const t = daemonSet('nginx:1.28', [
      [1, 'nginx:1.26'],
      [2, 'nginx:1.28'],
    ]);
    expect(kubectl(t, 'rollout history daemonset/agent --revision=1').stdout).toBe(
      'daemonset.apps/agent with revision #1\n' +
        'Pod Template:\n' +
        '  Labels:  app=agent\n' +
        '  Containers:\n' +
        '   agent:\n' +
        '    Image:         nginx:1.26\n' +
        '    Port:          <none>\n' +
        '    Host Port:     <none>\n' +
        '    Environment:   <none>\n' +
        '    Mounts:        <none>\n' +
        '  Volumes:         <none>\n' +
        '  Node-Selectors:  <none>\n' +
        '  Tolerations:     <none>\n\n',
    );
    expect(kubectl(t, 'rollout history daemonset/agent --revision=9')).toEqual({
      stdout: '',
      stderr: 'error: unable to find the specified revision\n',
      exitCode: 1,
    });
  });
  it('says so when there is no history yet', () => {
    expect(kubectl(daemonSet('nginx:1.28', []), 'rollout history ds/agent').stdout).toBe(
      'daemonset.apps/agent \nNo rollout history found.\n',
    );
  });
  it('refuses kinds without a history viewer or rollbacker, naming the group kind', () => {
    const t = daemonSet('nginx:1.28', []);
    t.seed('', 'configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'default' },
    } as KubeObject);
    expect(kubectl(t, 'rollout history configmap/settings').stderr).toBe(
      'error: no history viewer has been implemented for "ConfigMap"\n',
    );
    expect(kubectl(t, 'rollout undo rs/web').stderr).toBe(
      'error: no rollbacker has been implemented for "ReplicaSet.apps"\n',
    );
  });
});

describe('rollout undo daemonset', () => {
  const cases: {
    name: string;
    image: string;
    history: [number, string][];
    args: string;
    stdout: string;
    stderr: string;
    imageAfter: string;
  }[] = [
    {
      name: 'without --to-revision goes back to the second-newest revision',
      image: 'nginx:1.28',
      history: [
        [1, 'nginx:1.26'],
        [2, 'nginx:1.27'],
        [3, 'nginx:1.28'],
      ],
      args: '',
      stdout: 'daemonset.apps/agent rolled back\n',
      stderr: '',
      imageAfter: 'nginx:1.27',
    },
    {
      name: '--to-revision picks that revision',
      image: 'nginx:1.28',
      history: [
        [1, 'nginx:1.26'],
        [2, 'nginx:1.27'],
        [3, 'nginx:1.28'],
      ],
      args: ' --to-revision=1',
      stdout: 'daemonset.apps/agent rolled back\n',
      stderr: '',
      imageAfter: 'nginx:1.26',
    },
    {
      name: 'skips a revision the DaemonSet already runs',
      image: 'nginx:1.28',
      history: [
        [1, 'nginx:1.26'],
        [3, 'nginx:1.28'],
      ],
      args: ' --to-revision=3',
      stdout:
        'daemonset.apps/agent skipped rollback (current template already matches revision 3)\n',
      stderr: '',
      imageAfter: 'nginx:1.28',
    },
    {
      name: 'an unknown revision is an error',
      image: 'nginx:1.28',
      history: [
        [1, 'nginx:1.26'],
        [2, 'nginx:1.28'],
      ],
      args: ' --to-revision=7',
      stdout: '',
      stderr: 'error: unable to find specified revision 7 in history\n',
      imageAfter: 'nginx:1.28',
    },
    {
      name: 'a single revision leaves nothing to go back to',
      image: 'nginx:1.28',
      history: [[1, 'nginx:1.28']],
      args: '',
      stdout: '',
      stderr: 'error: no last revision to roll back to\n',
      imageAfter: 'nginx:1.28',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const t = daemonSet(c.image, c.history);
      const r = kubectl(t, `rollout undo ds/agent${c.args}`);
      expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: c.stdout, stderr: c.stderr });
      expect(r.exitCode).toBe(c.stderr ? 1 : 0);
      expect(dsImage(t)).toBe(c.imageAfter);
    });
  }
  it('patches the stored template back whole ($patch: replace leaves no leftover fields)', () => {
    const t = daemonSet('nginx:1.28', [
      [1, 'nginx:1.26'],
      [2, 'nginx:1.28'],
    ]);
    const ds = t.objects.get('apps/daemonsets/default/agent') as DaemonSet;
    ds.spec.template.metadata!.annotations = { 'kubectl.kubernetes.io/restartedAt': 'now' };
    kubectl(t, 'rollout undo ds/agent');
    // rollback.go DaemonSetRollbacker: the ControllerRevision's data sent as a strategic merge patch
    expect(t.requests.at(-1)).toMatchObject({
      verb: 'patch',
      query: { patchType: 'strategic' },
      body: { spec: { template: { ...template('agent', 'nginx:1.26'), $patch: 'replace' } } },
    });
    expect((t.objects.get('apps/daemonsets/default/agent') as DaemonSet).spec.template).toEqual(
      template('agent', 'nginx:1.26'),
    );
  });
});

describe('rollout undo --dry-run=client', () => {
  it('prints what a DaemonSet would roll back to, and changes nothing', () => {
    const t = daemonSet('nginx:1.28', [
      [1, 'nginx:1.26'],
      [2, 'nginx:1.28'],
    ]);
    const r = kubectl(t, 'rollout undo ds/agent --dry-run=client');
    expect(r.stdout).toMatch(
      /^daemonset\.apps\/agent will roll back to Pod Template:\n {2}Labels: {2}app=agent\n(.*\n)* {4}Image: +nginx:1\.26\n(.*\n)* {2}Tolerations: +<none>\n \(dry run\)\n$/,
    );
    expect(dsImage(t)).toBe('nginx:1.28');
  });
});

describe('undoTarget', () => {
  const rev = (n: number): Revision => ({
    number: n,
    changeCause: '',
    shown: template('agent', `v${n}`),
    record: { metadata: { name: `r${n}` } },
  });
  const owner: KubeObject = { metadata: { name: 'agent' } };
  const table: [string, number[], number, number | string][] = [
    ['second-newest', [1, 2, 5], 0, 2],
    ['exact', [1, 2, 5], 5, 5],
    ['missing', [1, 2, 5], 4, 'unable to find specified revision 4 in history'],
    ['negative', [1, 2], -1, 'unable to find specified revision -1 in history'],
    ['only one', [4], 0, 'no last revision to roll back to'],
    ['none', [], 0, 'no last revision to roll back to'],
  ];
  for (const [name, numbers, to, want] of table) {
    it(name, () => {
      const got = undoTarget(DAEMONSET_HISTORY, owner, numbers.map(rev), to);
      expect(typeof got === 'string' ? got : got.number).toBe(want);
    });
  }
});

describe('rollout history and undo deployment', () => {
  /** A deployment on nginx:1.27 (revision 2) whose revision 1 ran nginx:1.26 with a change-cause. */
  function deployment(paused = false): FakeTransport {
    const t = new FakeTransport();
    const d = t.seed('apps', 'deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'default',
        annotations: {
          'deployment.kubernetes.io/revision': '2',
          'kubernetes.io/change-cause': 'image 1.27',
        },
      },
      spec: {
        paused,
        selector: { matchLabels: { app: 'web' } },
        template: template('web', 'nginx:1.27'),
      },
    } as Deployment);
    for (const [rev, image, cause] of [
      ['1', 'nginx:1.26', 'image 1.26'],
      ['2', 'nginx:1.27', 'image 1.27'],
    ] as const) {
      const t1 = template('web', image);
      t1.metadata!.labels!['pod-template-hash'] = `h${rev}`;
      t.seed('apps', 'replicasets', {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `web-h${rev}`,
          namespace: 'default',
          annotations: {
            'deployment.kubernetes.io/revision': rev,
            'kubernetes.io/change-cause': cause,
          },
          ownerReferences: [controllerRef('Deployment', d)],
        },
        spec: { selector: { matchLabels: { app: 'web' } }, template: t1 },
      } as ReplicaSet);
    }
    return t;
  }
  it('--revision shows the ReplicaSet template with its change-cause among the annotations', () => {
    const out = kubectl(deployment(), 'rollout history deploy/web --revision=1').stdout;
    expect(out).toContain('deployment.apps/web with revision #1\nPod Template:\n');
    expect(out).toContain('  Labels:       app=web\n                pod-template-hash=h1\n');
    expect(out).toContain('  Annotations:  kubernetes.io/change-cause: image 1.26\n');
  });
  it('undo copies the revision\'s change-cause back onto the deployment, keeping its own revision', () => {
    const t = deployment();
    expect(kubectl(t, 'rollout undo deploy/web').stdout).toBe('deployment.apps/web rolled back\n');
    const d = t.objects.get('apps/deployments/default/web') as Deployment;
    expect(d.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '2',
      'kubernetes.io/change-cause': 'image 1.26',
    });
    expect(d.spec.template).toEqual(template('web', 'nginx:1.26'));
  });
  it('refuses a paused deployment', () => {
    expect(kubectl(deployment(true), 'rollout undo deploy/web').stderr).toBe(
      "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/web' and try again\n",
    );
  });
});
