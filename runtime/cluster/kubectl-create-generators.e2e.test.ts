// The imperative create subcommands a learner uses to set up config and access (create_configmap.go,
// create_secret*.go, create_serviceaccount.go, create_role.go, create_rolebinding.go, ...), against
// the API server's validation, and Secrets from decode (base64, stringData) to etcd.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const ok = (stdout: string) => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string) => ({ stdout: '', stderr, exitCode: 1 });

describe('kubectl create configmap | secret | serviceaccount', { timeout: 60_000 }, () => {
  it('builds ConfigMaps and Secrets from literals, refuses bad keys, and describes them', async () => {
    const cluster = createCluster({ seed: 41, workers: 0 });
    expect(await cluster.kubectl('create configmap app --from-literal=color=blue --from-literal=size=10')).toEqual(ok('configmap/app created\n'));
    expect((await cluster.kubectl('get cm app -o jsonpath={.data}')).stdout).toBe('{"color":"blue","size":"10"}');
    expect((await cluster.kubectl('describe cm app')).stdout).toBe(
      'Name:         app\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nData\n====\ncolor:\n----\nblue\n\nsize:\n----\n10\n\n\nBinaryData\n====\n\nEvents:  <none>\n',
    );
    expect(await cluster.kubectl('create cm dup --from-literal=a=1 --from-literal=a=2')).toEqual(fail('error: cannot add key "a", another key by that name already exists in Data for ConfigMap "dup"\n'));
    expect(await cluster.kubectl('create cm noeq --from-literal=abc')).toEqual(fail('error: invalid literal source abc, expected key=value\n'));

    expect(await cluster.kubectl('create secret generic db --from-literal=password=s3cr3t --from-literal=user=admin')).toEqual(ok('secret/db created\n'));
    expect((await cluster.kubectl('get secrets')).stdout).toMatch(/^NAME   TYPE     DATA   AGE\ndb     Opaque   2      \ds\n$/);
    expect((await cluster.kubectl('get secret db -o jsonpath={.data}')).stdout).toBe('{"password":"czNjcjN0","user":"YWRtaW4="}');
    expect((await cluster.kubectl('describe secret db')).stdout).toBe(
      'Name:         db\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\npassword:  6 bytes\nuser:      5 bytes\n',
    );
    // base64 is an encoding, not encryption: etcd holds what anyone who can read the key can decode
    expect((await cluster.etcdctl('get /registry/secrets/default/db --print-value-only')).stdout).toContain('"data":{"password":"czNjcjN0","user":"YWRtaW4="}');
    expect(await cluster.kubectl('create secret')).toEqual(fail('error: You must specify the type of secret to create: docker-registry, generic, tls\n'));
    expect(await cluster.kubectl('create secret docker-registry reg --docker-username=u --docker-password=p')).toEqual(ok('secret/reg created\n'));
    const config = await cluster.kubectl("get secret reg -o jsonpath='{.data.\\.dockerconfigjson}'");
    expect(config.stdout).toBe('eyJhdXRocyI6eyJodHRwczovL2luZGV4LmRvY2tlci5pby92MS8iOnsidXNlcm5hbWUiOiJ1IiwicGFzc3dvcmQiOiJwIiwiYXV0aCI6ImRUcHcifX19');
    expect((await cluster.kubectl('get secret reg -o jsonpath={.type}')).stdout).toBe('kubernetes.io/dockerconfigjson');
    expect(await cluster.kubectl('create serviceaccount builder')).toEqual(ok('serviceaccount/builder created\n'));
    expect(await cluster.kubectl('create sa')).toEqual(fail('error: exactly one NAME is required, got 0\n'));
  });

  it('decodes a Secret as Go does: stringData merges into data, bad base64 is a 400, the type is immutable', async () => {
    const cluster = createCluster({ seed: 42, workers: 0 });
    const apply = (yaml: string) => cluster.kubectl('apply -f -', { stdin: `apiVersion: v1\nkind: Secret\n${yaml}` });
    expect(await apply('metadata:\n  name: s\nstringData:\n  greeting: héllo\ndata:\n  raw: aGk=\n')).toEqual(ok('secret/s created\n'));
    const stored = JSON.parse((await cluster.kubectl('get secret s -o json')).stdout) as Record<string, unknown>;
    expect(stored.data).toEqual({ raw: 'aGk=', greeting: 'aMOpbGxv' });
    expect(stored).not.toHaveProperty('stringData');
    expect(await apply('metadata:\n  name: b\ndata:\n  a: "a!bc"\n')).toEqual(fail('Error from server (BadRequest): error when creating "STDIN": Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 1\n'));
    expect(await apply('metadata:\n  name: t\ntype: kubernetes.io/tls\n')).toEqual(fail('The Secret "t" is invalid: \n* data[tls.crt]: Required value\n* data[tls.key]: Required value\n'));
    expect((await cluster.kubectl(`patch secret s -p '{"type":"kubernetes.io/tls"}'`)).stderr).toBe(
      'The Secret "s" is invalid: \n* type: Invalid value: "kubernetes.io/tls": field is immutable\n* data[tls.crt]: Required value\n* data[tls.key]: Required value\n',
    );
    // an immutable Secret keeps its data
    expect((await cluster.kubectl(`patch secret s -p '{"immutable":true}'`)).exitCode).toBe(0);
    expect((await cluster.kubectl(`patch secret s -p '{"data":{"raw":"aG8="}}'`)).stderr).toBe('The Secret "s" is invalid: data: Forbidden: field is immutable when `immutable` is set\n');
  });
});

describe('kubectl create role | rolebinding | clusterrole | clusterrolebinding', { timeout: 60_000 }, () => {
  it('grants exactly what the rules say, one rule per API group', async () => {
    const cluster = createCluster({ seed: 43, workers: 0 });
    expect(await cluster.kubectl('create role pod-reader --verb=get,list,watch --resource=pods,deployments.apps,rs')).toEqual(ok('role.rbac.authorization.k8s.io/pod-reader created\n'));
    expect(JSON.parse((await cluster.kubectl('get role pod-reader -o jsonpath={.rules}')).stdout)).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(await cluster.kubectl('create rolebinding read-pods --role=pod-reader --user=jane --serviceaccount=default:builder')).toEqual(ok('rolebinding.rbac.authorization.k8s.io/read-pods created\n'));
    expect((await cluster.kubectl('get rolebinding read-pods -o wide')).stdout).toMatch(/^NAME        ROLE              AGE   USERS   GROUPS   SERVICEACCOUNTS\nread-pods   Role\/pod-reader   \ds    jane             default\/builder\n$/);
    expect((await cluster.kubectl('auth can-i list deployments --as=jane')).stdout).toBe('yes\n');
    expect((await cluster.kubectl('auth can-i delete pods --as=jane')).stdout).toBe('no\n');
    expect((await cluster.kubectl('auth can-i list pods --as=jane -n kube-system')).stdout).toBe('no\n');
    expect((await cluster.kubectl('auth can-i list pods --as=system:serviceaccount:default:builder')).stdout).toBe('yes\n');
    expect(await cluster.kubectl('create clusterrole node-reader --verb=get,list --resource=nodes --non-resource-url=/healthz')).toEqual(ok('clusterrole.rbac.authorization.k8s.io/node-reader created\n'));
    expect(await cluster.kubectl('create clusterrolebinding jane-nodes --clusterrole=node-reader --user=jane')).toEqual(ok('clusterrolebinding.rbac.authorization.k8s.io/jane-nodes created\n'));
    expect((await cluster.kubectl('get nodes --as=jane -o name')).stdout).toBe('node/cp-1\n');
  });

  it("refuses what kubectl's Validate refuses", async () => {
    const cluster = createCluster({ seed: 44, workers: 0 });
    expect(await cluster.kubectl('create role r --resource=pods')).toEqual(fail('error: at least one verb must be specified\n'));
    expect(await cluster.kubectl('create role r --verb=get')).toEqual(fail('error: at least one resource must be specified\n'));
    expect(await cluster.kubectl('create role r --verb=get --resource=foo')).toEqual(fail('error: the server doesn\'t have a resource type "foo"\n'));
    expect(await cluster.kubectl('create role r --verb=bind --resource=pods')).toEqual(fail("error: can not perform 'bind' on 'pods' in group ''\n"));
    expect(await cluster.kubectl('create role r --verb=frob --resource=pods')).toEqual({ stdout: 'role.rbac.authorization.k8s.io/r created\n', stderr: "Warning: 'frob' is not a standard resource verb\n", exitCode: 0 });
    expect(await cluster.kubectl('create rolebinding b --user=a')).toEqual(fail('error: exactly one of clusterrole or role must be specified\n'));
    expect(await cluster.kubectl('create rolebinding b --role=r --serviceaccount=builder')).toEqual(fail('error: serviceaccount must be <namespace>:<name>\n'));
  });
});

describe('kubectl create quota | priorityclass', { timeout: 60_000 }, () => {
  it('creates them from flags', async () => {
    const cluster = createCluster({ seed: 45, workers: 0 });
    expect(await cluster.kubectl('create quota q --hard=pods=2,cpu=1')).toEqual(ok('resourcequota/q created\n'));
    expect((await cluster.kubectl('get quota q -o jsonpath={.spec.hard}')).stdout).toBe('{"cpu":"1","pods":"2"}');
    expect(await cluster.kubectl('create quota bad --hard=pods')).toEqual(fail('error: invalid argument (pods): must be in the form of resourceName=quantity\n'));
    expect(await cluster.kubectl('create priorityclass high --value=1000 --description="very important"')).toEqual(ok('priorityclass.scheduling.k8s.io/high created\n'));
    expect((await cluster.kubectl('get pc high')).stdout).toMatch(/^NAME   VALUE   GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\nhigh   1000    false            \ds    PreemptLowerPriority\n$/);
  });
});

describe('kube-root-ca.crt in every namespace (the root CA publisher)', { timeout: 60_000 }, () => {
  it('publishes the cluster CA to each namespace, new ones included, and puts it back when deleted', async () => {
    const cluster = createCluster({ seed: 46, workers: 0 });
    await cluster.kubectl('create namespace team');
    await cluster.advance(2_000);
    expect((await cluster.kubectl('get cm -A --field-selector metadata.name=kube-root-ca.crt -o jsonpath={.items[*].metadata.namespace}')).stdout).toBe('default kube-node-lease kube-public kube-system team');
    const ca = (await cluster.kubectl("get cm kube-root-ca.crt -o jsonpath='{.data.ca\\.crt}'")).stdout;
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----\nMII[A-Za-z0-9+/]{61}\n(?:[A-Za-z0-9+/=]{1,64}\n)+-----END CERTIFICATE-----\n$/);
    expect((await cluster.kubectl('delete cm kube-root-ca.crt -n team')).exitCode).toBe(0);
    await cluster.advance(2_000);
    expect((await cluster.kubectl("get cm kube-root-ca.crt -n team -o jsonpath='{.data.ca\\.crt}'")).stdout).toBe(ca);
  });
});

describe('kubectl create token, and --token', { timeout: 60_000 }, () => {
  it('issues a bound token for a service account that authenticates as it, until it expires or the account goes', async () => {
    const cluster = createCluster({ seed: 47, topology: 'ha', workers: 0 });
    await cluster.kubectl('create serviceaccount builder');
    await cluster.advance(1_000);
    const token = (await cluster.kubectl('create token builder')).stdout.trim();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number; iat: number; sub: string };
    expect(claims.sub).toBe('system:serviceaccount:default:builder');
    expect(claims.exp - claims.iat).toBe(3600);
    // authenticated as the account, then authorized by RBAC like anyone: nothing until a binding
    expect((await cluster.kubectl(`get pods --token=${token}`)).stderr).toBe('Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:builder" cannot list resource "pods" in API group "" in the namespace "default"\n');
    await cluster.kubectl('create rolebinding b --clusterrole=view --serviceaccount=default:builder');
    expect((await cluster.kubectl(`get pods --token=${token}`)).stderr).toBe('No resources found in default namespace.\n');
    // every replica verifies it (one signing key); a changed signature is nobody
    expect((await cluster.kubectl(`get pods --token=${token.slice(0, -4)}AAAA`)).stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
    // create_token.go wraps the error with fmt.Errorf: its text, not the Invalid status's causes
    expect((await cluster.kubectl('create token builder --duration=1m')).stderr).toBe('error: failed to create token: TokenRequest.authentication.k8s.io "builder" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n');
    expect((await cluster.kubectl('create token nobody')).stderr).toBe('error: failed to create token: serviceaccounts "nobody" not found\n');
    const short = (await cluster.kubectl('create token builder --duration=10m')).stdout.trim();
    await cluster.advance(601_000);
    expect((await cluster.kubectl(`get pods --token=${short}`)).stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
    await cluster.kubectl('delete serviceaccount builder');
    await cluster.advance(1_000);
    expect((await cluster.kubectl(`get pods --token=${token}`)).stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
  });
});

