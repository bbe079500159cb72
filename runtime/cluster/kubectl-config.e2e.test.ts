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
    expect((await cluster.kubectl('config rename-context other x')).stderr).toBe('error: "kubectl config rename-context" is not available in this simulated cluster\n');
  });

  it('a ServiceAccount token as a kubeconfig user: its context is Forbidden until a RoleBinding, then allowed', async () => {
    const cluster = createCluster({ seed: 72, workers: [{}] });
    expect((await cluster.kubectl('create serviceaccount jane')).exitCode).toBe(0);
    await cluster.advance(1_000);
    const token = (await cluster.kubectl('create token jane')).stdout.trim();
    expect((await cluster.kubectl(`config set-credentials jane --token=${token}`)).stdout).toBe('User "jane" set.\n');
    expect((await cluster.kubectl('config set-context jane --cluster=kubernetes --user=jane --namespace=default')).stdout).toBe('Context "jane" created.\n');
    expect((await cluster.kubectl('config get-users')).stdout).toBe('NAME\njane\nkubernetes-admin\n');
    const minified = (await cluster.kubectl('config view --minify --context=jane')).stdout;
    expect(minified).toContain('current-context: jane\n');
    expect(minified).toContain('users:\n- name: jane\n  user:\n    token: REDACTED\n');
    expect(minified).not.toContain('kubernetes-admin');

    // --context picks the user too
    expect((await cluster.kubectl('get pods --context=jane')).stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    expect((await cluster.kubectl('config use-context jane')).exitCode).toBe(0);
    expect((await cluster.kubectl('auth whoami -o jsonpath={.status.userInfo.username}')).stdout).toBe('system:serviceaccount:default:jane');
    expect((await cluster.kubectl('create rolebinding jane-view --clusterrole=view --serviceaccount=default:jane --context=kubernetes-admin@kubernetes')).exitCode).toBe(0);
    await cluster.advance(1_000);
    expect((await cluster.kubectl('get pods')).stderr).toBe('No resources found in default namespace.\n');
    expect((await cluster.kubectl('delete configmap kube-root-ca.crt')).stderr).toContain('cannot delete resource "configmaps"');

    // a context whose user is not in the kubeconfig cannot be used; deleting the current context leaves it dangling
    expect((await cluster.kubectl('config set-context ghost --cluster=kubernetes --user=nobody')).exitCode).toBe(0);
    expect((await cluster.kubectl('get pods --context=ghost')).stderr).toBe('error: invalid configuration: user "nobody" was not found for context "ghost"\n');
    expect((await cluster.kubectl('get pods --context=missing')).stderr).toBe('error: context "missing" does not exist\n');
    expect((await cluster.kubectl('config delete-context jane')).stdout).toBe(
      'warning: this removed your active context, use "kubectl config use-context" to select a different one\ndeleted context jane from /root/.kube/config\n',
    );
    expect((await cluster.kubectl('get pods')).stderr).toBe('error: invalid configuration: context was not found for specified context: jane\n');
    expect((await cluster.kubectl('config use-context kubernetes-admin@kubernetes')).exitCode).toBe(0);
    expect((await cluster.kubectl('get pods')).exitCode).toBe(0);
    expect((await cluster.kubectl('config set-credentials bob --client-certificate=bob.crt')).stderr).toBe(
      'error: --client-certificate is not available in this simulation: use --token (kubectl create token <serviceaccount>)\n',
    );
  });
});
