// curl, wget and nslookup against a fake pod network: each outcome worded as the real program words it.
import { describe, expect, it } from 'vitest';
import { execInUserland, type ExecEnvironment, type HttpGetResult, type PodNetworkAccess } from './userland.ts';

function envWith(answers: Record<string, HttpGetResult>): ExecEnvironment {
  const network: PodNetworkAccess = {
    nameserver: '10.96.0.10',
    httpGet: (host, port) => answers[`${host}:${port}`] ?? { ok: false, failure: 'resolve' },
    lookup: (name) => (name === 'web' ? { ok: true, name: 'web.default.svc.cluster.local', addresses: ['10.96.7.7'] } : name === 'slow' ? { ok: false, timedOut: true } : { ok: false, timedOut: false }),
  };
  return { hostname: 'client', env: [], files: {}, network };
}

const env = envWith({
  'web:80': { ok: true, body: 'hello\n', address: '10.96.7.7:80' },
  'web:81': { ok: false, failure: 'refused', address: '10.96.7.7:81' },
  'web:82': { ok: false, failure: 'timeout', address: '10.96.7.7:82' },
});
const busybox = (...argv: string[]) => execInUserland('busybox', argv, env);
const nginx = (...argv: string[]) => execInUserland('debian', argv, env, new Set(['curl']));

describe('wget (busybox)', () => {
  it('prints the page, with its progress lines unless -q', () => {
    expect(busybox('wget', '-qO-', 'http://web')).toEqual({ stdout: 'hello\n', stderr: '', exitCode: 0, durationMs: 0 });
    expect(busybox('wget', '-O', '-', 'web')).toMatchObject({ stdout: 'hello\n', stderr: 'Connecting to web (10.96.7.7:80)\nwriting to stdout\nwritten to stdout\n' });
  });
  it('words each failure as busybox does', () => {
    expect(busybox('wget', '-qO-', 'nope')).toMatchObject({ stderr: "wget: bad address 'nope'\n", exitCode: 1 });
    expect(busybox('wget', '-qO-', 'web:81')).toMatchObject({ stderr: "wget: can't connect to remote host (10.96.7.7): Connection refused\n", exitCode: 1 });
    expect(busybox('wget', '-qO-', 'web:82')).toMatchObject({ stderr: "wget: can't connect to remote host (10.96.7.7): Connection timed out\n", exitCode: 1, durationMs: 127_000 });
    expect(busybox('wget', 'web')).toMatchObject({ exitCode: 126 });
  });
});

describe('curl (nginx images)', () => {
  it('prints the page; curl is not in busybox', () => {
    expect(nginx('curl', '-s', 'web')).toMatchObject({ stdout: 'hello\n', exitCode: 0 });
    expect(busybox('curl', 'web')).toHaveProperty('startError');
  });
  it('reports failures with their exit codes, silently under -s unless -S', () => {
    expect(nginx('curl', 'nope')).toMatchObject({ stderr: 'curl: (6) Could not resolve host: nope\n', exitCode: 6 });
    expect(nginx('curl', '-s', 'nope')).toMatchObject({ stderr: '', exitCode: 6 });
    expect(nginx('curl', '-sS', 'web:81')).toMatchObject({ stderr: "curl: (7) Failed to connect to web port 81 after 0 ms: Couldn't connect to server\n", exitCode: 7 });
    expect(nginx('curl', '-m', '5', 'web:82')).toMatchObject({ stderr: 'curl: (28) Connection timed out after 5001 milliseconds\n', exitCode: 28, durationMs: 5000 });
    expect(nginx('curl', '--frobnicate', 'web')).toMatchObject({ exitCode: 2 });
  });
});

describe('nslookup (busybox)', () => {
  it('prints the server and the name the search list found', () => {
    expect(busybox('nslookup', 'web')).toHaveProperty('stdout', 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.7.7\n\n');
    expect(busybox('nslookup', 'nope')).toMatchObject({ stdout: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find nope: NXDOMAIN\n\n", exitCode: 1 });
    expect(busybox('nslookup', 'slow')).toMatchObject({ stdout: ';; connection timed out; no servers could be reached\n\n', exitCode: 1 });
  });
});
