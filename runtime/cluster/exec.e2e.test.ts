// kubectl exec end to end: kubectl -> API server (pods/exec) -> the node's kubelet (/exec) -> the
// container runtime running the command in the image's userland, with the texts a real cluster
// prints for each way it can fail on the way.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

describe('kubectl exec', () => {
  it("runs a command in a pod's container and passes on its output and exit code", async () => {
    const cluster = createCluster({ seed: 7, workers: [{}] });
    await cluster.kubectl('create service clusterip my-db --tcp=5432:5432');
    await cluster.advance(2_000);
    await cluster.kubectl('run bb --image=busybox:1.36 --env=GREETING=hi -- sleep 3600');
    await cluster.advance(20_000);
    await cluster.kubectl('create service clusterip later --tcp=80:80');
    // the Services that existed when the container started, as docker-links variables (envvars.go)
    const dbIP = (await cluster.kubectl('get svc my-db -o jsonpath={.spec.clusterIP}')).stdout;
    expect((await cluster.kubectl('exec bb -- printenv KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT_HTTPS MY_DB_SERVICE_HOST MY_DB_SERVICE_PORT_5432_5432 MY_DB_PORT MY_DB_PORT_5432_TCP_ADDR')).stdout).toBe(
      `10.96.0.1\n443\n${dbIP}\n5432\ntcp://${dbIP}:5432\n${dbIP}\n`,
    );
    expect((await cluster.kubectl('exec bb -- printenv LATER_SERVICE_HOST')).exitCode).toBe(1);
    const ip = (await cluster.kubectl('get pod bb -o jsonpath={.status.podIP}')).stdout;
    expect(ip).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(await cluster.kubectl('exec bb -- hostname')).toEqual({ stdout: 'bb\n', stderr: '', exitCode: 0 });
    // the files the kubelet mounts: its managed hosts file and the ClusterFirst resolv.conf
    const hosts = await cluster.kubectl('exec bb -- cat /etc/hosts');
    expect(hosts.stdout.startsWith('# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n')).toBe(true);
    expect(hosts.stdout.endsWith(`${ip}\tbb\n`)).toBe(true);
    expect((await cluster.kubectl('exec bb -- cat /etc/resolv.conf')).stdout).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
    expect((await cluster.kubectl('exec bb -- printenv GREETING')).stdout).toBe('hi\n');
    // the remote exit code becomes kubectl's, after the command's own output
    const script = await cluster.kubectl('exec bb -- sh -c "echo $GREETING from $HOSTNAME; nope; exit 3"');
    expect(script).toEqual({ stdout: 'hi from bb\n', stderr: 'sh: nope: not found\ncommand terminated with exit code 3\n', exitCode: 3 });
    // a command takes its simulated time
    const before = cluster.now();
    expect((await cluster.kubectl('exec bb -- sleep 5')).exitCode).toBe(0);
    expect(cluster.now() - before).toBeGreaterThanOrEqual(5_000);
  });

  it('fails as a real cluster does: a missing program, container, pod, command, or kubelet', async () => {
    const cluster = createCluster({ seed: 8, workers: [{}] });
    await cluster.kubectl('run bb --image=busybox:1.36 -- sleep 3600');
    await cluster.kubectl('run done --image=ghcr.io/inside-cp/complete:1s --restart=Never');
    const pending = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pending\nspec:\n  nodeSelector:\n    disk: ssd\n  containers:\n  - name: web\n    image: nginx:1.27\n';
    expect((await cluster.kubectl('apply -f -', { stdin: pending })).exitCode).toBe(0);
    await cluster.advance(20_000);
    const bash = await cluster.kubectl('exec bb -- bash');
    expect(bash.exitCode).toBe(1);
    expect(bash.stderr).toMatch(
      /^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in \$PATH: unknown\n$/,
    );
    expect((await cluster.kubectl('exec bb -c nope -- true')).stderr).toBe('Error from server (BadRequest): container nope is not valid for pod bb\n');
    expect((await cluster.kubectl('exec ghost -- true')).stderr).toBe('Error from server (NotFound): pods "ghost" not found\n');
    expect((await cluster.kubectl('exec bb')).stderr).toBe('error: you must specify at least one command for the container\n');
    expect((await cluster.kubectl('exec -- true')).stderr).toBe('error: pod, type/name or --filename must be specified\n');
    expect((await cluster.kubectl('exec done -- true')).stderr).toBe('error: cannot exec into a container in a completed pod; current phase is Succeeded\n');
    expect((await cluster.kubectl('exec pending -- true')).stderr).toBe('Error from server (BadRequest): pod pending does not have a host assigned\n');
    // without "--" the command still runs, after kubectl's deprecation notice
    expect(await cluster.kubectl('exec bb hostname')).toEqual({
      stdout: 'bb\n',
      stderr: 'kubectl exec [POD] [COMMAND] is DEPRECATED and will be removed in a future version. Use kubectl exec [POD] -- [COMMAND] instead.\n',
      exitCode: 0,
    });
    // -it: this terminal is not a TTY, so the shell reads an empty stdin and exits
    expect(await cluster.kubectl('exec -it bb -- sh')).toEqual({ stdout: '', stderr: 'Unable to use a TTY - input is not a terminal or the right kind of file\n', exitCode: 0 });
    // a container that is not running (crash-looping, waiting out its back-off) has no process to join:
    // the kubelet refuses the upgrade in plain text
    await cluster.kubectl('run crash --image=ghcr.io/inside-cp/exit-1');
    const waiting = async () => (await cluster.kubectl('get pod crash -o jsonpath={.status.containerStatuses[0].state.waiting.reason}')).stdout;
    for (let i = 0; i < 60 && (await waiting()) !== 'CrashLoopBackOff'; i++) await cluster.advance(1_000);
    expect(await waiting()).toBe('CrashLoopBackOff');
    expect((await cluster.kubectl('exec crash -- true')).stderr).toBe('error: unable to upgrade connection: container not found ("crash")\n');
    await cluster.faults.stopNode('worker-1');
    const down = await cluster.kubectl('exec bb -- true');
    expect(down.stderr).toMatch(/^Error from server: error dialing backend: dial tcp 192\.168\.\d+\.\d+:10250: connect: connection refused\n$/);
  });

  it('needs create on pods/exec, and finds no shell in the distroless control-plane images', async () => {
    const cluster = createCluster({ seed: 9, topology: 'ha', workers: [{}] });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
    await cluster.advance(20_000);
    const first = await cluster.kubectl('exec deploy/web -- hostname');
    expect(first.stderr).toMatch(/^Found 2 pods, using pod\/web-[a-z0-9]+-[a-z0-9]{5}\n$/);
    expect(first.stdout).toBe(`${first.stderr.slice(first.stderr.indexOf('pod/') + 4, -1)}\n`);
    // the view role reads pods but may not exec into them
    const viewer = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: viewer\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\nsubjects:\n- kind: User\n  name: jane\n';
    const binding = await cluster.kubectl('apply -f -', { stdin: viewer });
    expect(binding.exitCode, binding.stderr).toBe(0);
    const pod = first.stdout.trim();
    expect((await cluster.kubectl(`get pod ${pod} --as=jane`)).exitCode).toBe(0);
    expect((await cluster.kubectl(`exec ${pod} --as=jane -- hostname`)).stderr).toBe(
      `Error from server (Forbidden): pods "${pod}" is forbidden: User "jane" cannot create resource "pods/exec" in API group "" in the namespace "default"\n`,
    );
    const apiserver = await cluster.kubectl('exec -n kube-system kube-apiserver-cp-1 -- sh');
    expect(apiserver.stderr).toMatch(/exec: "sh": executable file not found in \$PATH: unknown\n$/);
    // the etcd image alone has a shell (a static bash, for its migration script), but no coreutils
    expect(await cluster.kubectl('exec -n kube-system etcd-cp-1 -- sh -c "echo in etcd; cat /etc/hostname"')).toEqual({
      stdout: 'in etcd\n', stderr: 'sh: line 1: cat: command not found\ncommand terminated with exit code 127\n', exitCode: 127,
    });
  });

  it('-i sends the terminal\'s input: a shell runs it as a script, cat copies it, etcdctl put stores it', async () => {
    const cluster = createCluster({ seed: 11, topology: 'ha', workers: [{}] });
    await cluster.kubectl('run box --image=busybox:1.36 -- sleep 3600');
    await cluster.advance(20_000);
    expect(await cluster.kubectl('exec -i box -- sh', { stdin: 'echo hello from stdin\nhostname\nexit 3\n' })).toEqual({
      stdout: 'hello from stdin\nbox\n', stderr: 'command terminated with exit code 3\n', exitCode: 3,
    });
    expect((await cluster.kubectl('exec -i box -- cat', { stdin: 'piped\n' })).stdout).toBe('piped\n');
    expect((await cluster.kubectl('exec box -- cat', { stdin: 'not sent without -i\n' })).stdout).toBe('');
    const tls = '--cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';
    expect((await cluster.kubectl(`-n kube-system exec -i etcd-cp-1 -- etcdctl ${tls} put /greeting`, { stdin: 'hello etcd' })).stdout).toBe('OK\n');
    expect((await cluster.etcdctl('get /greeting --print-value-only')).stdout).toBe('hello etcd\n');
  });

  it("reaches Services from inside a pod: DNS, kube-proxy's choice of pod, and a refusal once no pod is left", async () => {
    const cluster = createCluster({ seed: 10, workers: [{}, {}] });
    // agnhost serve-hostname answers with the name of the pod that got the connection
    await cluster.kubectl('create deployment host --image=registry.k8s.io/e2e-test-images/agnhost:2.52 --replicas=3 -- /agnhost serve-hostname');
    await cluster.kubectl('expose deployment host --port=80 --target-port=9376');
    await cluster.kubectl('create deployment web --image=nginx:1.27');
    await cluster.kubectl('run client --image=busybox:1.36 -- sleep 3600');
    await cluster.advance(40_000);
    const ip = (await cluster.kubectl('get svc host -o jsonpath={.spec.clusterIP}')).stdout;
    expect((await cluster.kubectl('exec client -- nslookup host')).stdout).toBe(
      `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\thost.default.svc.cluster.local\nAddress: ${ip}\n\n`,
    );
    const pods = (await cluster.kubectl('get pods -l app=host -o name')).stdout.trim().split('\n').map((n) => n.slice('pod/'.length)).sort();
    const answered = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const r = await cluster.kubectl('exec client -- wget -qO- host');
      expect(r.exitCode).toBe(0);
      answered.add(r.stdout);
    }
    // every answer is one of the Service's pods, and the rules spread the connections over them
    expect([...answered].every((name) => pods.includes(name))).toBe(true);
    expect(answered.size).toBeGreaterThan(1);
    // nginx's image has curl; the web pod reaches the Service by its full name
    const curl = await cluster.kubectl('exec deploy/web -- curl -s host.default.svc.cluster.local');
    expect(pods).toContain(curl.stdout);
    await cluster.kubectl('scale deployment host --replicas=0');
    await cluster.advance(30_000);
    // no endpoints: kube-proxy's REJECT rule refuses the connection
    expect((await cluster.kubectl('exec client -- wget -qO- host')).stderr).toBe(
      `wget: can't connect to remote host (${ip}): Connection refused\ncommand terminated with exit code 1\n`,
    );
    expect((await cluster.kubectl('exec client -- wget -qO- nope')).stderr).toBe("wget: bad address 'nope'\ncommand terminated with exit code 1\n");
  });
});
