// PodDisruptionBudgets end to end through cluster.kubectl() only: the API server validates a budget
// and gives it generation 1 and a zeroed status, the disruption controller fills the status in
// (ALLOWED DISRUPTIONS in `get pdb`, the counts and DisruptionAllowed in `-o yaml`), follows a
// scale-up, scales a percentage against the Deployment's replicas, and reports a budget that
// selects nothing with the NoPods event `describe pdb` shows.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

const deployment = (name: string, replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
      - name: app
        image: nginx:1.27
`;

const budget = (name: string, app: string, field: string): string => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
spec:
  ${field}
  selector:
    matchLabels: { app: ${app} }
`;

describe('PodDisruptionBudget through kubectl', { timeout: 120_000 }, () => {
  it('counts healthy pods, follows a scale-up, scales percentages, and reports a budget with no pods', async () => {
    const cluster = createCluster({ seed: 11, topology: 'single-node' });
    const kubectl = async (cmd: string, stdin?: string) => cluster.kubectl(cmd, stdin === undefined ? {} : { stdin });
    /** The cluster's current time, as the creation timestamp of a new object. */
    let clocks = 0;
    const clock = async (): Promise<string> => {
      const name = `clock-${++clocks}`;
      expect((await kubectl('apply -f -', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`)).exitCode).toBe(0);
      return (await kubectl(`get configmap ${name} -o jsonpath={.metadata.creationTimestamp}`)).stdout;
    };
    const pdbRow = async (name: string): Promise<string[]> => {
      const out = (await kubectl(`get pdb ${name} --no-headers`)).stdout.trim();
      return out.split(/\s+/).slice(0, 4);
    };

    // with the controller manager down, the stored budget is what the API server made of it
    await cluster.faults.stopComponent('kube-controller-manager-cp-1');
    expect((await kubectl('apply -f -', budget('web-pdb', 'web', 'minAvailable: 2'))).stdout).toBe('poddisruptionbudget.policy/web-pdb created\n');
    const stored = (await kubectl('get pdb web-pdb -o yaml')).stdout;
    expect(stored).toMatch(/\n {2}generation: 1\n/);
    expect(stored).toMatch(/\nstatus:\n {2}currentHealthy: 0\n {2}desiredHealthy: 0\n {2}disruptionsAllowed: 0\n {2}expectedPods: 0\n$/);
    expect((await kubectl('get pdb')).stdout).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nweb-pdb\s+2\s+N\/A\s+0\s+\S+\n$/);
    await cluster.faults.startComponent('kube-controller-manager-cp-1');

    expect((await kubectl('apply -f -', deployment('web', 3))).stdout).toBe('deployment.apps/web created\n');
    await cluster.advance(60_000);
    expect(await pdbRow('web-pdb')).toEqual(['web-pdb', '2', 'N/A', '1']);
    const synced = (await kubectl('get pdb web-pdb -o yaml')).stdout;
    expect(synced).toMatch(/\nstatus:\n {2}conditions:\n {2}- lastTransitionTime: \S+\n {4}message: ""\n {4}observedGeneration: 1\n {4}reason: SufficientPods\n {4}status: "True"\n {4}type: DisruptionAllowed\n {2}currentHealthy: 3\n {2}desiredHealthy: 2\n {2}disruptionsAllowed: 1\n {2}expectedPods: 3\n {2}observedGeneration: 1\n$/);

    expect((await kubectl('scale deployment web --replicas=5')).exitCode).toBe(0);
    await cluster.advance(60_000);
    expect(await pdbRow('web-pdb')).toEqual(['web-pdb', '2', 'N/A', '3']);

    // a spec change is a new generation, which the controller observes
    expect((await kubectl('apply -f -', budget('web-pdb', 'web', 'minAvailable: 4'))).stdout).toBe('poddisruptionbudget.policy/web-pdb configured\n');
    await cluster.advance(5_000);
    expect(await pdbRow('web-pdb')).toEqual(['web-pdb', '4', 'N/A', '1']);
    expect((await kubectl('get pdb web-pdb -o jsonpath={.metadata.generation}/{.status.observedGeneration}')).stdout).toBe('2/2');

    // an eviction's disruptedPods entry (written here as the eviction API would) counts the pod as
    // unhealthy until it is deleted or DeletionTimeout (2 minutes) passes; the controller re-syncs at expiry
    const victim = (await kubectl('get pods -l app=web -o jsonpath={.items[0].metadata.name}')).stdout;
    const now = await clock();
    const patch = JSON.stringify({ status: { disruptedPods: { [victim]: now } } });
    expect((await kubectl(`patch pdb web-pdb --subresource=status --type=merge -p '${patch}'`)).exitCode).toBe(0);
    await cluster.advance(2_000);
    expect((await kubectl('get pdb web-pdb -o jsonpath={.status.currentHealthy}/{.status.disruptionsAllowed}/{.status.disruptedPods}')).stdout).toBe(
      `4/0/{"${victim}":"${now}"}`,
    );
    await cluster.advance(125_000);
    expect((await kubectl('get pdb web-pdb -o jsonpath={.status.currentHealthy}/{.status.disruptionsAllowed}/{.status.disruptedPods}')).stdout).toBe('5/1/');

    // a DisruptionTarget condition on a pod nobody deletes is reset to False after 2 minutes
    const markedAt = await clock();
    const target = JSON.stringify({ status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: 'test', lastTransitionTime: markedAt }] } });
    expect((await kubectl(`patch pod ${victim} --subresource=status --type=strategic -p '${target}'`)).exitCode).toBe(0);
    const disruptionTarget = `get pod ${victim} -o 'jsonpath={.status.conditions[?(@.type=="DisruptionTarget")].status}/{.status.conditions[?(@.type=="DisruptionTarget")].reason}'`;
    await cluster.advance(60_000);
    expect((await kubectl(disruptionTarget)).stdout).toBe('True/PreemptionByScheduler');
    await cluster.advance(70_000);
    expect((await kubectl(disruptionTarget)).stdout).toBe('False/PreemptionByScheduler');

    // 30% of the Deployment's 4 replicas rounds up to 2 unavailable: 2 must stay healthy
    expect((await kubectl('apply -f -', deployment('api', 4))).exitCode).toBe(0);
    expect((await kubectl('apply -f -', budget('api-pdb', 'api', 'maxUnavailable: 30%'))).exitCode).toBe(0);
    await cluster.advance(60_000);
    expect(await pdbRow('api-pdb')).toEqual(['api-pdb', 'N/A', '30%', '2']);
    expect((await kubectl('get pdb api-pdb -o jsonpath={.status.desiredHealthy}/{.status.expectedPods}')).stdout).toBe('2/4');

    expect((await kubectl('apply -f -', budget('none-pdb', 'none', 'minAvailable: 1'))).exitCode).toBe(0);
    await cluster.advance(5_000);
    expect(await pdbRow('none-pdb')).toEqual(['none-pdb', '1', 'N/A', '0']);
    const described = (await kubectl('describe pdb none-pdb')).stdout;
    expect(described).toMatch(/^Name:\s+none-pdb\nNamespace:\s+default\nMin available:\s+1\nSelector:\s+app=none\nStatus:\n {4}Allowed disruptions:\s+0\n {4}Current:\s+0\n {4}Desired:\s+1\n {4}Total:\s+0\nEvents:\n/);
    // each sync of an empty budget records NoPods again; the status write itself causes the second sync
    expect(described).toMatch(/\n {2}Normal\s+NoPods\s+\d+s \(x2 over \d+s\)\s+controllermanager\s+No matching pods found\n$/);
    expect((await kubectl('get pdb none-pdb -o jsonpath={.status.conditions[0].reason}')).stdout).toBe('InsufficientPods');
  });

  it('refuses a budget with both minAvailable and maxUnavailable, with the upstream text', async () => {
    const cluster = createCluster({ seed: 12, topology: 'single-node' });
    const both = budget('both', 'web', 'minAvailable: 1\n  maxUnavailable: 1');
    expect(await cluster.kubectl('apply -f -', { stdin: both })).toEqual({
      stdout: '',
      stderr:
        'The PodDisruptionBudget "both" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a1c0a0), ' +
        'Selector:(*v1.LabelSelector)(0xc000a1c0c0), MaxUnavailable:(*intstr.IntOrString)(0xc000a1c0b0), ' +
        'UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set\n',
      exitCode: 1,
    });
    const over = budget('over', 'web', 'maxUnavailable: 120%');
    expect((await cluster.kubectl('apply -f -', { stdin: over })).stderr).toBe(
      'The PodDisruptionBudget "over" is invalid: spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%\n',
    );
  });
});
