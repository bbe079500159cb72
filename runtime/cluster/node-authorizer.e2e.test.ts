// --authorization-mode=Node,RBAC as kubeadm sets it: a kubelet's credentials read a Secret only
// while a pod bound to that node refers to it (the Node authorizer), and no RBAC binding gives
// the system:nodes group more.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  nodeName: NODE
  containers:
  - name: app
    image: busybox:1.36
    command: [sleep, "3600"]
    env:
    - name: PASSWORD
      valueFrom: {secretKeyRef: {name: db, key: password}}
`;

describe('the Node authorizer', { timeout: 60_000 }, () => {
  it('lets a kubelet read a Secret only while a pod on its node uses it', async () => {
    const cluster = createCluster({ seed: 61, workers: [{}, {}] });
    const nodes = (await cluster.kubectl("get nodes -l '!node-role.kubernetes.io/control-plane' -o jsonpath={.items[*].metadata.name}")).stdout.split(' ');
    const [mine, other] = nodes as [string, string];
    const asNode = (node: string): string => `--as=system:node:${node} --as-group=system:nodes`;
    expect((await cluster.kubectl('create secret generic db --from-literal=password=s3cr3t')).exitCode).toBe(0);
    // can-i prints the authorizers' reasons after "no" (SubjectAccessReview status.reason)
    expect((await cluster.kubectl(`auth can-i get secret/db ${asNode(mine)}`)).stdout).toBe(`no - no relationship found between node '${mine}' and this object\n`);

    expect((await cluster.kubectl('apply -f -', { stdin: POD.replace('NODE', mine) })).exitCode).toBe(0);
    await cluster.advance(15_000);
    expect((await cluster.kubectl('exec app -- printenv PASSWORD')).stdout).toBe('s3cr3t\n');
    expect((await cluster.kubectl(`auth can-i get secret/db ${asNode(mine)}`)).stdout).toBe('yes\n');
    expect((await cluster.kubectl(`get secret db ${asNode(other)}`)).stderr).toBe(
      `Error from server (Forbidden): secrets "db" is forbidden: User "system:node:${other}" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node '${other}' and this object\n`,
    );
    // every Secret, or one in another namespace: no
    expect((await cluster.kubectl(`auth can-i list secrets ${asNode(mine)}`)).stdout).toBe('no - No Object name found\n');
    // what is not subdivided follows the system:node rules: pods yes, deployments no
    expect((await cluster.kubectl(`auth can-i list pods -A ${asNode(other)}`)).stdout).toBe('yes\n');
    expect((await cluster.kubectl(`auth can-i create deployments ${asNode(other)}`)).stdout).toBe('no\n');

    expect((await cluster.kubectl('delete pod app --grace-period=0 --force')).exitCode).toBe(0);
    await cluster.advance(5_000);
    expect((await cluster.kubectl(`auth can-i get secret/db ${asNode(mine)}`)).stdout).toBe(`no - no relationship found between node '${mine}' and this object\n`);
  });
});
