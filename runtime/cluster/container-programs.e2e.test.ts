// busybox containers run their command: what it prints is the container's log, when it printed it,
// and its exit code is the container's; a program the image lacks never starts (StartError).
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

describe("a busybox container's command", () => {
  it('runs in the pod: its output is the log, its exit code the container status', async () => {
    const cluster = createCluster({ seed: 11, workers: [{}] });
    await cluster.kubectl('create deployment web --image=nginx:1.27');
    await cluster.kubectl('expose deployment web --port=80');
    await cluster.advance(20_000);
    await cluster.kubectl('run client --image=busybox:1.36 --restart=Never -- wget -qO- web');
    await cluster.kubectl('run slow --image=busybox:1.36 --restart=Never -- sh -c "echo start; sleep 5; echo end; exit 2"');
    await cluster.kubectl('run loop --image=busybox:1.36 -- sh -c "while true; do echo tick; sleep 10; done"');
    await cluster.advance(40_000);
    const status = async (pod: string) => (await cluster.kubectl(`get pod ${pod} --no-headers`)).stdout.split(/\s+/)[2];
    expect(await status('client')).toBe('Completed');
    expect((await cluster.kubectl('logs client')).stdout.split('\n')[3]).toBe('<title>Welcome to nginx!</title>');
    expect(await status('slow')).toBe('Error');
    expect((await cluster.kubectl('get pod slow -o jsonpath={.status.containerStatuses[0].state.terminated.exitCode}')).stdout).toBe('2');
    const times = (await cluster.kubectl('logs slow --timestamps')).stdout.trim().split('\n').map((l) => Date.parse(l.split(' ')[0]!));
    expect((await cluster.kubectl('logs slow')).stdout).toBe('start\nend\n');
    expect(times[1]! - times[0]!).toBe(5_000);
    // the kubelet's hosts file names the sandbox's IP even before any status carried it
    await cluster.kubectl('run hosts --image=busybox:1.36 --restart=Never -- cat /etc/hosts');
    await cluster.advance(10_000);
    const ip = (await cluster.kubectl('get pod hosts -o jsonpath={.status.podIP}')).stdout;
    expect((await cluster.kubectl('logs hosts')).stdout.endsWith(`fe00::2\tip6-allrouters\n${ip}\thosts\n`)).toBe(true);
    expect(await status('loop')).toBe('Running');
    const ticks = (await cluster.kubectl('logs loop')).stdout.trim().split('\n');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ticks)).toEqual(new Set(['tick']));
  });

  it('a program the image lacks fails to start: StartError, exit code 128, and a Failed event', async () => {
    const cluster = createCluster({ seed: 12, workers: [{}] });
    await cluster.kubectl('run bad --image=busybox:1.36 --restart=Never -- curl web');
    await cluster.advance(20_000);
    const terminated = JSON.parse((await cluster.kubectl('get pod bad -o jsonpath={.status.containerStatuses[0].state.terminated}')).stdout) as Record<string, unknown>;
    const message = 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "curl": executable file not found in $PATH: unknown';
    expect(terminated).toMatchObject({ exitCode: 128, reason: 'StartError', message });
    expect((await cluster.kubectl('get events --field-selector reason=Failed -o jsonpath={.items[0].message}')).stdout).toBe(`Error: ${message}`);
  });

  it('kubectl run -i --rm: attached to its output, passes on its exit code, then deleted', async () => {
    const cluster = createCluster({ seed: 13, workers: [{}] });
    await cluster.kubectl('create deployment web --image=nginx:1.27');
    await cluster.kubectl('expose deployment web --port=80');
    await cluster.advance(20_000);
    const fetched = await cluster.kubectl('run t1 --rm -i --image=busybox:1.36 --restart=Never -- wget -qO- web');
    expect(fetched.exitCode).toBe(0);
    expect(fetched.stdout).toContain('<title>Welcome to nginx!</title>');
    expect(fetched.stdout.endsWith('</html>\npod "t1" deleted\n')).toBe(true);
    expect(fetched.stderr).toBe("If you don't see a command prompt, try pressing enter.\n");
    const failed = await cluster.kubectl('run t2 --rm -it --image=busybox:1.36 --restart=Never -- sh -c "sleep 3; echo hello; exit 3"');
    expect(failed).toEqual({
      stdout: 'hello\npod "t2" deleted\n',
      stderr: "Unable to use a TTY - input is not a terminal or the right kind of file\nIf you don't see a command prompt, try pressing enter.\npod default/t2 terminated (Error)\n",
      exitCode: 3,
    });
    // -i defaults the restart policy to OnFailure; the pod stays without --rm
    expect((await cluster.kubectl('run t3 -i --image=busybox:1.36 -- echo hi')).stdout).toBe('hi\n');
    expect((await cluster.kubectl('get pod t3 -o jsonpath={.spec.restartPolicy}')).stdout).toBe('OnFailure');
    expect((await cluster.kubectl('get pods t1 t2')).stderr).toBe('Error from server (NotFound): pods "t1" not found\nError from server (NotFound): pods "t2" not found\n');
    const usage = "\nSee 'kubectl run -h' for help and examples\n";
    expect((await cluster.kubectl('run t4 --rm --image=busybox:1.36 --restart=Never -- echo hi')).stderr).toBe(`error: --rm should only be used for attached containers${usage}`);
    expect((await cluster.kubectl('run t5 -t --image=busybox:1.36 -- echo hi')).stderr).toBe(`error: -i/--stdin is required for containers with -t/--tty=true${usage}`);
  });

  it.each(['single-node', 'ha'] as const)('kubectl logs -f follows what the container writes until it stops (%s)', async (topology) => {
    const cluster = createCluster({ seed: 14, topology, workers: [{}] });
    await cluster.kubectl('run short --image=busybox:1.36 --restart=Never -- sh -c "echo a; sleep 20; echo b"');
    await cluster.kubectl('run loop --image=busybox:1.36 -- sh -c "while true; do echo tick; sleep 10; done"');
    for (let i = 0; i < 30 && (await cluster.kubectl('logs short')).stdout === ''; i++) await cluster.advance(1_000);
    // the line written 20 s later arrives on the open stream, and the stream ends with the container
    const start = cluster.now();
    expect(await cluster.kubectl('logs -f short')).toEqual({ stdout: 'a\nb\n', stderr: '', exitCode: 0 });
    expect(cluster.now() - start).toBeLessThan(25_000);
    expect(cluster.now() - start).toBeGreaterThan(10_000);
    // a finished container: its log, and the stream ends at once
    expect(await cluster.kubectl('logs -f short')).toEqual({ stdout: 'a\nb\n', stderr: '', exitCode: 0 });
    // a container that keeps writing: followed for this terminal's watch window
    const ticks = (await cluster.kubectl('logs -f loop --prefix')).stdout.trim().split('\n');
    expect(ticks.length).toBeGreaterThan(3);
    expect(new Set(ticks)).toEqual(new Set(['[pod/loop/loop] tick']));
    expect((await cluster.kubectl('logs -f nope')).stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
  });
});
