import { describe, expect, it } from 'vitest';
import { execInUserland, hostProgramCall, userlandOf, type ExecEnvironment, type ExecResult, type Userland } from './userland.ts';

const env: ExecEnvironment = { hostname: 'web-1', env: [['PATH', '/bin'], ['HOSTNAME', 'web-1'], ['NAME', 'a b']], files: { '/etc/hostname': 'web-1\n' } };
const run = (u: Userland, ...argv: string[]): ExecResult => execInUserland(u, argv, env);

describe('userlandOf', () => {
  it.each([
    ['docker.io/library/busybox:1.36', 'busybox'],
    ['docker.io/library/nginx:1.27', 'debian'],
    ['docker.io/library/nginx:1.27-alpine', 'alpine'],
    ['docker.io/library/redis:7', 'debian'],
    ['ghcr.io/inside-cp/crash-after:5s', 'busybox'],
    ['registry.k8s.io/etcd:3.5.16-0', 'etcd'],
    ['registry.k8s.io/pause:3.10', 'distroless'],
    ['registry.k8s.io/kube-apiserver:v1.33.0', 'distroless'],
  ])('%s is %s', (ref, userland) => expect(userlandOf(ref)).toBe(userland));
});

describe('execInUserland', () => {
  it('runs the simple programs', () => {
    expect(run('busybox', 'echo', 'a', 'b')).toEqual({ stdout: 'a b\n', stderr: '', exitCode: 0, durationMs: 0 });
    expect(run('busybox', 'echo', '-n', 'a')).toMatchObject({ stdout: 'a' });
    expect(run('debian', '/bin/hostname')).toMatchObject({ stdout: 'web-1\n' });
    expect(run('busybox', 'printenv', 'NAME', 'MISSING')).toMatchObject({ stdout: 'a b\n', exitCode: 1 });
    expect(run('busybox', 'false')).toMatchObject({ exitCode: 1 });
    expect(run('busybox', 'sleep', '2')).toMatchObject({ exitCode: 0, durationMs: 2000 });
  });

  it('words a missing file as each userland does', () => {
    expect(run('debian', 'cat', '/nope')).toMatchObject({ stderr: 'cat: /nope: No such file or directory\n', exitCode: 1 });
    expect(run('busybox', 'cat', '/nope')).toMatchObject({ stderr: "cat: can't open '/nope': No such file or directory\n", exitCode: 1 });
  });

  it('fails to start a program the image lacks, as runc does', () => {
    expect(run('busybox', 'bash')).toEqual({ startError: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in $PATH: unknown' });
    expect(run('distroless', '/bin/sh')).toEqual({ startError: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "/bin/sh": stat /bin/sh: no such file or directory: unknown' });
  });

  it('runs shell scripts: quoting, variables, && and ||, exit, and each shell\'s "not found"', () => {
    expect(run('busybox', 'sh', '-c', `echo "$NAME" '$NAME' \${HOSTNAME}; false && echo no || echo yes`)).toMatchObject({ stdout: 'a b $NAME web-1\nyes\n', exitCode: 0 });
    expect(run('busybox', 'sh', '-c', 'nope')).toMatchObject({ stderr: 'sh: nope: not found\n', exitCode: 127 });
    expect(run('debian', 'sh', '-c', 'nope')).toMatchObject({ stderr: 'sh: 1: nope: not found\n', exitCode: 127 });
    expect(run('debian', 'bash', '-c', 'nope; exit 4')).toMatchObject({ stderr: 'bash: line 1: nope: command not found\n', exitCode: 4 });
    expect(run('busybox', 'sh', '-c', 'false; exit')).toMatchObject({ exitCode: 1 });
    expect(run('busybox', 'sh')).toMatchObject({ stdout: '', exitCode: 0 });
  });

  it('says plainly when a real program is not simulated', () => {
    expect(run('busybox', 'ls', '/')).toMatchObject({ stderr: 'ls: present in this image, but not simulated by Inside the Control Plane\n', exitCode: 126 });
    expect(run('busybox', 'ps')).toMatchObject({ exitCode: 126 });
  });

  it('lists a directory of the files it knows (volume mounts, /etc), one entry per line in byte order', () => {
    const mounted: ExecEnvironment = { ...env, mountDirs: ['/etc/app', '/empty'], files: { '/etc/app/size': '10', '/etc/app/Color': 'blue', '/etc/app/nested/x': '1', '/etc/hostname': 'web-1\n' } };
    const ls = (...args: string[]): ExecResult => execInUserland('busybox', ['ls', ...args], mounted);
    expect(ls('/etc/app')).toMatchObject({ stdout: 'Color\nnested\nsize\n', exitCode: 0 });
    expect(ls('-1', '/etc/app/')).toMatchObject({ stdout: 'Color\nnested\nsize\n' });
    expect(ls('/etc/app/nested')).toMatchObject({ stdout: 'x\n' });
    expect(ls('/etc/app/size')).toMatchObject({ stdout: '/etc/app/size\n' });
    expect(ls('/empty')).toMatchObject({ stdout: '', exitCode: 0 });
    expect(ls('/etc/app/nope')).toMatchObject({ stderr: 'ls: /etc/app/nope: No such file or directory\n', exitCode: 1 });
    expect(execInUserland('debian', ['ls', '/etc/app/nope'], mounted)).toMatchObject({ stderr: "ls: cannot access '/etc/app/nope': No such file or directory\n", exitCode: 2 });
    // the image's own tree (/etc is not a volume), other options, several paths: not known here, and it says so
    for (const args of [['/etc'], ['/usr/bin'], ['-la', '/etc/app'], ['/etc/app', '/empty'], []]) expect(ls(...args)).toMatchObject({ exitCode: 126 });
  });
});

describe('the etcd image (distroless, a static bash as /bin/sh, the etcd binaries)', () => {
  it('has a shell with only its builtins: bash\'s "command not found" under the name sh', () => {
    expect(run('etcd', 'sh', '-c', 'echo hi; cat /etc/hosts; true && echo ok')).toMatchObject({
      stdout: 'hi\nok\n', stderr: 'sh: line 1: cat: command not found\n', exitCode: 0,
    });
    expect(run('etcd', 'sh', '-c', 'ls')).toMatchObject({ stderr: 'sh: line 1: ls: command not found\n', exitCode: 127 });
  });

  it('has no cat, echo or ls binaries to exec directly (builtins exist only inside the shell)', () => {
    for (const program of ['cat', 'echo', 'ls']) expect(run('etcd', program)).toHaveProperty('startError');
  });

  it('leaves etcdctl to the container\'s owner, alone or as a script\'s one command with its variables', () => {
    expect(hostProgramCall('etcd', ['etcdctl', 'member', 'list'])).toEqual({ argv: ['etcdctl', 'member', 'list'], assignments: [] });
    expect(hostProgramCall('etcd', ['/usr/local/bin/etcdctl', 'version'])).toEqual({ argv: ['etcdctl', 'version'], assignments: [] });
    expect(hostProgramCall('etcd', ['sh', '-c', 'ETCDCTL_API=3 etcdctl --cacert="/a b" get k'])).toEqual({
      argv: ['etcdctl', '--cacert=/a b', 'get', 'k'], assignments: [['ETCDCTL_API', '3']],
    });
    expect(hostProgramCall('etcd', ['sh', '-c', 'etcdctl get k; echo done'])).toBeUndefined();
    expect(hostProgramCall('etcd', ['sh', '-c', 'echo hi'])).toBeUndefined();
    expect(hostProgramCall('busybox', ['etcdctl', 'get', 'k'])).toBeUndefined();
    // inside a longer script it says why it does not run, rather than pretending it is missing
    expect(run('etcd', 'sh', '-c', 'etcdctl get k; echo done')).toMatchObject({ stdout: 'done\n', exitCode: 0 });
    expect(run('etcd', 'sh', '-c', 'etcdctl get k; echo done')).toHaveProperty('stderr', expect.stringContaining('etcdctl: runs here only as the container\'s one command'));
  });
});

describe('stdin (kubectl exec -i)', () => {
  const withStdin = (stdin: string): ExecEnvironment => ({ ...env, stdin });
  it('cat copies it, alone or as "-"; a shell without -c runs it as its script', () => {
    expect(execInUserland('busybox', ['cat'], withStdin('a\n'))).toMatchObject({ stdout: 'a\n', exitCode: 0 });
    expect(execInUserland('busybox', ['cat', '-', '/etc/hostname'], withStdin('a\n'))).toMatchObject({ stdout: 'a\nweb-1\n' });
    expect(execInUserland('busybox', ['sh'], withStdin('echo one; cat\nexit 4\n'))).toMatchObject({ stdout: 'one\n', exitCode: 4 });
    expect(execInUserland('debian', ['bash', '-s'], withStdin('echo two\n'))).toMatchObject({ stdout: 'two\n', exitCode: 0 });
    expect(execInUserland('busybox', ['cat'], env)).toMatchObject({ stdout: '', exitCode: 0 });
  });
});

