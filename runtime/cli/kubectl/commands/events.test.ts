// kubectl events against the fake API server: order, LAST SEEN, --for, --types, empty results.
import { describe, expect, it } from 'vitest';
import { rfc3339, rfc3339Micro, type CoreEvent, type KubeObject } from '../../../api/index.ts';
import type { KubectlResult } from '../context.ts';
import { FakeTransport } from '../fake-transport.ts';
import { runKubectl } from '../kubectl.ts';

const S = 1000;
const NOW = 600 * S;

function event(name: string, e: Partial<CoreEvent>): KubeObject {
  return { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: e.metadata?.namespace ?? 'default' }, involvedObject: { kind: 'Pod', name: 'web', apiVersion: 'v1' }, type: 'Normal', ...e } as KubeObject;
}

function cluster(): FakeTransport {
  const t = new FakeTransport(() => NOW);
  t.seed('', 'events', event('a', { reason: 'Scheduled', message: 'Successfully assigned default/web to node-1', eventTime: rfc3339Micro(100 * S), lastTimestamp: null, firstTimestamp: null }));
  t.seed('', 'events', event('b', { reason: 'BackOff', type: 'Warning', message: 'Back-off restarting failed container  ', count: 7, firstTimestamp: rfc3339(120 * S), lastTimestamp: rfc3339(590 * S) }));
  t.seed('', 'events', event('c', { reason: 'Pulled', message: 'Container image "nginx:1.27" already present on machine', count: 1, firstTimestamp: rfc3339(110 * S), lastTimestamp: rfc3339(110 * S) }));
  t.seed('', 'events', event('d', { reason: 'ScalingReplicaSet', involvedObject: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, message: 'Scaled up replica set web-1 to 1', count: 1, firstTimestamp: rfc3339(90 * S), lastTimestamp: rfc3339(90 * S) }));
  t.seed('', 'events', event('e', { reason: 'FailedScheduling', type: 'Warning', message: '0/1 nodes are available', eventTime: rfc3339Micro(80 * S), series: { count: 3, lastObservedTime: rfc3339Micro(95 * S) } }));
  return t;
}

function kubectl(t: FakeTransport, line: string): KubectlResult {
  let result: KubectlResult | undefined;
  runKubectl(line, t, { nowMs: NOW }, (r) => (result = r));
  return result!;
}

describe('kubectl events', () => {
  it('lists events oldest first by when they last happened, repeated ones as "(xN over ...)"', () => {
    expect(kubectl(cluster(), 'events').stdout).toBe(
      'LAST SEEN               TYPE      REASON              OBJECT           MESSAGE\n' +
        '8m30s                   Normal    ScalingReplicaSet   Deployment/web   Scaled up replica set web-1 to 1\n' +
        '8m25s (x3 over 8m40s)   Warning   FailedScheduling    Pod/web          0/1 nodes are available\n' +
        '8m20s                   Normal    Scheduled           Pod/web          Successfully assigned default/web to node-1\n' +
        '8m10s                   Normal    Pulled              Pod/web          Container image "nginx:1.27" already present on machine\n' +
        '10s (x7 over 8m)        Warning   BackOff             Pod/web          Back-off restarting failed container\n',
    );
  });

  it('--for selects by involvedObject kind, apiVersion and name; --types filters', () => {
    const t = cluster();
    expect(kubectl(t, 'events --for deploy/web').stdout).toBe(
      'LAST SEEN   TYPE     REASON              OBJECT           MESSAGE\n8m30s       Normal   ScalingReplicaSet   Deployment/web   Scaled up replica set web-1 to 1\n',
    );
    expect(t.requests.at(-1)?.query?.fieldSelector).toBe('involvedObject.kind=Deployment,involvedObject.apiVersion=apps/v1,involvedObject.name=web');
    expect(kubectl(t, 'events --types=warning --no-headers').stdout.split('\n').filter(Boolean).map((l) => l.split(/ {3,}/)[2])).toEqual(['FailedScheduling', 'BackOff']);
  });

  it('says so when nothing matches, and rejects bad flags as events.go does', () => {
    expect(kubectl(cluster(), 'events -n kube-system')).toEqual({ stdout: '', stderr: 'No events found in kube-system namespace.\n', exitCode: 0 });
    expect(kubectl(cluster(), 'events --types=Info').stderr).toBe('error: valid --types are Normal or Warning\n');
    expect(kubectl(cluster(), 'events --for web').stderr).toBe('error: --for must be in resource/name form\n');
    expect(kubectl(cluster(), 'events --for a/b/c').stderr).toBe('error: arguments in resource/name form may not have more than one slash\n');
    expect(kubectl(cluster(), 'events -o name --types Warning').stdout).toBe('event/e\nevent/b\n');
  });
});

describe('kubectl events -o with a format its print flags lack', () => {
  // events.go's genericclioptions.PrintFlags: -o wide once reached the table printer's invariant and threw
  it.each(['wide', 'custom-columns=A:.reason'])('-o %s', (output) => {
    expect(kubectl(cluster(), `events -o ${output}`)).toEqual({
      stdout: '',
      stderr: `error: unable to match a printer suitable for the output format "${output}", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n`,
      exitCode: 1,
    });
  });
});
