// kubectl config: the terminal's kubeconfig (kubeadm's admin.conf), kept between commands; the
// current context's namespace is the default of every later command.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

describe('kubectl config', { timeout: 60_000 }, () => {
  it('shows admin.conf, switches the default namespace with set-context --current, and switches contexts', async () => {
    const cluster = createCluster({ seed: 71, workers: [{}] });
    expect((await cluster.kubectl('config view')).stdout).toBe([
      'apiVersion: v1', 'clusters:', '- cluster:', '    certificate-authority-data: DATA+OMITTED', '    server: https://192.168.49.2:8443', '  name: kubernetes',
      'contexts:', '- context:', '    cluster: kubernetes', '    user: kubernetes-admin', '  name: kubernetes-admin@kubernetes',
      'current-context: kubernetes-admin@kubernetes', 'kind: Config', 'preferences: {}',
      'users:', '- name: kubernetes-admin', '  user:', '    client-certificate-data: DATA+OMITTED', '    client-key-data: DATA+OMITTED', '',
    ].join('\n'));
    expect((await cluster.kubectl('config current-context')).stdout).toBe('kubernetes-admin@kubernetes\n');

    await cluster.kubectl('create namespace dev');
    await cluster.advance(1_000);
    expect((await cluster.kubectl('config set-context --current --namespace=dev')).stdout).toBe('Context "kubernetes-admin@kubernetes" modified.\n');
    expect((await cluster.kubectl('config get-contexts')).stdout).toBe(
      'CURRENT   NAME                          CLUSTER      AUTHINFO           NAMESPACE\n*         kubernetes-admin@kubernetes   kubernetes   kubernetes-admin   dev\n',
    );
    expect((await cluster.kubectl('create configmap here')).exitCode).toBe(0);
    expect((await cluster.kubectl('get cm here -o jsonpath={.metadata.namespace}')).stdout).toBe('dev');
    expect((await cluster.kubectl('get cm here -n default')).stderr).toBe('Error from server (NotFound): configmaps "here" not found\n');

    expect((await cluster.kubectl('config set-context other --cluster=kubernetes --user=kubernetes-admin')).stdout).toBe('Context "other" created.\n');
    expect((await cluster.kubectl('config use-context other')).stdout).toBe('Switched to context "other".\n');
    expect((await cluster.kubectl('get cm here')).stderr).toBe('Error from server (NotFound): configmaps "here" not found\n');
    expect((await cluster.kubectl('get cm here --context=kubernetes-admin@kubernetes -o name')).stdout).toBe('configmap/here\n');
    expect((await cluster.kubectl('config use-context nope')).stderr).toBe('error: no context exists with the name: "nope"\n');
    expect((await cluster.kubectl('config set-credentials x')).stderr).toBe('error: "kubectl config set-credentials" is not available in this simulated cluster\n');
  });
});
