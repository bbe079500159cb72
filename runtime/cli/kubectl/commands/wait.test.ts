// kubectl wait against the fake API server: met at once, met later through the watch, timed out,
// checked once, and wait.go's errors.
import { describe, expect, it } from 'vitest';
import type { KubeObject, Pod } from '../../../api/index.ts';
import type { KubectlResult } from '../context.ts';
import { FakeTransport } from '../fake-transport.ts';
import { runKubectl } from '../kubectl.ts';

const pod = (name: string, ready: boolean, phase = 'Running'): Pod =>
  ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }) as Pod;

function start(t: FakeTransport, line: string) {
  let result: KubectlResult | undefined;
  const timers: { ms: number; fn: () => void }[] = [];
  runKubectl(line, t, { nowMs: 0, after: (ms, fn) => timers.push({ ms, fn }) }, (r) => (result = r));
  return { result: () => result, timers };
}

describe('kubectl wait', () => {
  it('prints "condition met" for each object already there, case-insensitively', () => {
    const t = new FakeTransport();
    t.seed('', 'pods', pod('a', true));
    t.seed('', 'pods', pod('b', true));
    expect(start(t, 'wait --for=condition=ready pods -l app=web').result()).toEqual({ stdout: 'pod/a condition met\npod/b condition met\n', stderr: '', exitCode: 0 });
    expect(start(t, 'wait --for=jsonpath={.status.phase}=Running pod/a').result()?.stdout).toBe('pod/a condition met\n');
  });

  it('watches until the condition holds, within one --timeout', () => {
    const t = new FakeTransport();
    const stored = t.seed('', 'pods', pod('a', false)) as Pod;
    const run = start(t, 'wait --for=condition=Ready pod/a --timeout=1m');
    expect(run.result()).toBeUndefined();
    expect(run.timers.map((x) => x.ms)).toEqual([60_000]);
    t.modify('', 'pods', { ...stored, status: pod('a', true).status } as KubeObject);
    expect(run.result()).toEqual({ stdout: 'pod/a condition met\n', stderr: '', exitCode: 0 });
  });

  it('times out naming the resource, or checks once with --timeout=0', () => {
    const t = new FakeTransport();
    t.seed('', 'pods', pod('a', false));
    const run = start(t, 'wait --for=condition=Ready pod/a');
    expect(run.timers.map((x) => x.ms)).toEqual([30_000]);
    run.timers[0]!.fn();
    expect(run.result()).toEqual({ stdout: '', stderr: 'error: timed out waiting for the condition on pods/a\n', exitCode: 1 });
    expect(start(t, 'wait --for=condition=Ready pod/a --timeout=0').result()?.stderr).toBe('error: condition not met for pods/a\n');
  });

  it('--for=delete is met by an object already gone and waits for one still there', () => {
    const t = new FakeTransport();
    t.seed('', 'pods', pod('a', true));
    expect(start(t, 'wait --for=delete pod/gone').result()).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const run = start(t, 'wait --for=delete pod/a');
    expect(run.result()).toBeUndefined();
    expect(run.timers).toHaveLength(1);
  });

  it("rejects what wait.go rejects", () => {
    const t = new FakeTransport();
    t.seed('', 'pods', pod('a', true));
    expect(start(t, 'wait pod/a').result()?.stderr).toBe('error: unrecognized condition: ""\n');
    expect(start(t, 'wait --for=jsonpath={.status.phase} pod/a').result()?.stderr).toBe("error: jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3\n");
    expect(start(t, 'wait --for=condition=Ready pods -l app=none').result()?.stderr).toBe('error: no matching resources found\n');
    expect(start(t, 'wait --for=condition=Ready pod/nope').result()?.stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
  });
});

describe('duration flags', () => {
  it('are checked by the parser, as pflag parses DurationVar flags', () => {
    const t = new FakeTransport();
    expect(start(t, 'wait --for=delete pod/a --timeout=soon').result()?.stderr).toBe('error: invalid argument "soon" for "--timeout" flag: time: invalid duration "soon"\nSee \'kubectl wait --help\' for usage.\n');
    expect(start(t, 'logs a --since=5x').result()?.stderr).toBe('error: invalid argument "5x" for "--since" flag: time: invalid duration "5x"\nSee \'kubectl logs --help\' for usage.\n');
  });
});
