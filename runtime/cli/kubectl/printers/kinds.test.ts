// Rows of the other kinds, cases modelled on pkg/printers/internalversion/printers_test.go
// (TestPrintNodeStatus, TestPrintNodeRole, TestPrintService, TestPrintServiceLoadBalancer,
// TestPrintDeployment, TestPrintEvent).
import { describe, expect, it } from 'vitest';
import type { CoreEvent, Deployment, Endpoints, KubeObject, Node, Service } from '../../../api/index.ts';
import { rfc3339 } from '../../../api/index.ts';
import { formatEndpoints, tableFor } from './kinds.ts';
import { printTables } from './table.ts';

const NOW = 3_600_000;
const row = (kind: string, obj: KubeObject, wide = false): string[] =>
  tableFor(kind).row(obj, NOW, wide);
const node = (
  spec: Node['spec'],
  conditions: { type: string; status: 'True' | 'False' | 'Unknown' }[],
  labels?: Record<string, string>,
): Node => ({
  metadata: { name: 'foo', labels },
  spec,
  status: { conditions },
});

describe('nodes (TestPrintNodeStatus, TestPrintNodeRole)', () => {
  it.each<[Node, string, string]>([
    [node({}, [{ type: 'Ready', status: 'True' }]), 'Ready', '<none>'],
    [
      node({ unschedulable: true }, [{ type: 'Ready', status: 'True' }]),
      'Ready,SchedulingDisabled',
      '<none>',
    ],
    [node({}, [{ type: 'Ready', status: 'False' }]), 'NotReady', '<none>'],
    [
      node({ unschedulable: true }, [{ type: 'Ready', status: 'False' }]),
      'NotReady,SchedulingDisabled',
      '<none>',
    ],
    [node({}, []), 'Unknown', '<none>'],
    [node({ unschedulable: true }, []), 'Unknown,SchedulingDisabled', '<none>'],
    [
      node({}, [{ type: 'Ready', status: 'True' }], {
        'node-role.kubernetes.io/foo': '',
        'node-role.kubernetes.io/bar': '',
        'node-role.kubernetes.io/baz.qux': '',
      }),
      'Ready',
      'bar,baz.qux,foo',
    ],
    [
      node({}, [{ type: 'Ready', status: 'True' }], { 'kubernetes.io/role': 'node' }),
      'Ready',
      'node',
    ],
    [
      node({}, [{ type: 'Ready', status: 'True' }], {
        'node-role.kubernetes.io/': '',
        'node-role.kubernetes.io': '',
      }),
      'Ready',
      '<none>',
    ],
  ])('%#', (n, status, roles) => expect(row('Node', n).slice(1, 3)).toEqual([status, roles]));
  it('wide shows <none> addresses and <unknown> versions', () => {
    expect(row('Node', node({}, []), true).slice(5)).toEqual([
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ]);
  });
});

const svc = (spec: Service['spec'], status?: Service['status']): Service => ({
  metadata: { name: 'test1', creationTimestamp: rfc3339(0) },
  spec,
  status,
});

describe('services (TestPrintService, TestPrintServiceLoadBalancer)', () => {
  it.each<[Service, string[]]>([
    [
      svc({
        type: 'ClusterIP',
        ports: [{ protocol: 'TCP', port: 2233 }],
        clusterIPs: ['10.9.8.7'],
      }),
      ['test1', 'ClusterIP', '10.9.8.7', '<none>', '2233/TCP', '60m'],
    ],
    [
      svc({
        type: 'NodePort',
        ports: [{ protocol: 'TCP', port: 8888, nodePort: 9999 }],
        clusterIPs: ['10.9.8.7'],
      }),
      ['test1', 'NodePort', '10.9.8.7', '<none>', '8888:9999/TCP', '60m'],
    ],
    [
      svc({
        type: 'LoadBalancer',
        ports: [{ protocol: 'TCP', port: 8888 }],
        clusterIPs: ['10.9.8.7'],
      }),
      ['test1', 'LoadBalancer', '10.9.8.7', '<pending>', '8888/TCP', '60m'],
    ],
    [
      svc(
        {
          type: 'LoadBalancer',
          ports: [{ protocol: 'TCP', port: 8888 }],
          clusterIPs: ['10.9.8.7'],
          externalIPs: ['80.11.12.10'],
        },
        { loadBalancer: { ingress: [{ ip: '3.4.5.6', hostname: 'test.cluster.com' }] } },
      ),
      ['test1', 'LoadBalancer', '10.9.8.7', '3.4.5.6,80.11.12.10', '8888/TCP', '60m'],
    ],
    [
      svc({ type: 'ExternalName', externalName: 'my.database.example.com' }),
      ['test1', 'ExternalName', '<none>', 'my.database.example.com', '<none>', '60m'],
    ],
    [
      svc(
        { type: 'LoadBalancer', ports: [{ port: 80 }], clusterIPs: ['10.0.0.1'] },
        { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { ip: '5.6.7.8' }, { ip: '9.10.11.12' }] } },
      ),
      ['test1', 'LoadBalancer', '10.0.0.1', '1.2.3.4,5.6.7...', '80/TCP', '60m'],
    ],
  ])('%#', (s, cells) => expect(row('Service', s)).toEqual(cells));
});

describe('deployments (TestPrintDeployment)', () => {
  const d: Deployment = {
    metadata: { name: 'test1', creationTimestamp: rfc3339(0) },
    spec: {
      replicas: 5,
      selector: { matchLabels: { foo: 'bar' } },
      template: {
        spec: {
          containers: [
            { name: 'fake-container1', image: 'fake-image1' },
            { name: 'fake-container2', image: 'fake-image2' },
          ],
        },
      },
    },
    status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 },
  };
  it('plain and wide', () => {
    expect(row('Deployment', d)).toEqual(['test1', '0/5', '2', '1', '60m']);
    expect(row('Deployment', d, true)).toEqual([
      'test1',
      '0/5',
      '2',
      '1',
      '60m',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'foo=bar',
    ]);
  });
});

describe('events (TestPrintEvent)', () => {
  const ev: CoreEvent = {
    metadata: { name: 'event1' },
    involvedObject: { kind: 'Pod', name: 'foo', fieldPath: 'spec.containers{foo}' },
    source: { component: 'kubelet', host: 'Node1' },
    reason: 'Event Reason',
    message: 'Message Data',
    firstTimestamp: rfc3339(NOW - 3 * 86_400_000),
    lastTimestamp: rfc3339(NOW - 2 * 86_400_000),
    count: 6,
    type: 'Normal',
  };
  it('plain and wide', () => {
    expect(row('Event', ev)).toEqual(['2d', 'Normal', 'Event Reason', 'pod/foo', 'Message Data']);
    expect(row('Event', ev, true)).toEqual([
      '2d',
      'Normal',
      'Event Reason',
      'pod/foo',
      'spec.containers{foo}',
      'kubelet, Node1',
      'Message Data',
      '3d',
      '6',
      'event1',
    ]);
    expect(tableFor('Event').headers(true)).toEqual([
      'LAST SEEN',
      'TYPE',
      'REASON',
      'OBJECT',
      'SUBOBJECT',
      'SOURCE',
      'MESSAGE',
      'FIRST SEEN',
      'COUNT',
      'NAME',
    ]);
  });
  it('a singleton event without count prints count 1 and falls back to eventTime', () => {
    const single: CoreEvent = {
      metadata: { name: 'e' },
      involvedObject: { kind: 'Node', name: 'n1' },
      eventTime: rfc3339(NOW - 5000),
      type: 'Normal',
      reason: 'Starting',
    };
    expect(row('Event', single, true)).toEqual([
      '5s',
      'Normal',
      'Starting',
      'node/n1',
      '',
      '',
      '',
      '5s',
      '1',
      'e',
    ]);
  });
});

describe('printTables', () => {
  it('the default table (NAME, AGE) for kinds without a printer, and CREATED AT for roles', () => {
    expect(tableFor('ControllerRevision').headers(false)).toEqual([
      'NAME',
      'CONTROLLER',
      'REVISION',
      'AGE',
    ]);
    expect(
      row('ClusterRole', {
        metadata: { name: 'admin', creationTimestamp: '2026-01-01T00:00:00Z' },
      }),
    ).toEqual(['admin', '2026-01-01T00:00:00Z']);
  });
  it('label columns (-L) take the last path segment, upper-cased', () => {
    const out = printTables(
      [
        {
          kind: 'Namespace',
          typePrefix: 'namespace',
          namespaced: false,
          objects: [
            {
              metadata: {
                name: 'a',
                labels: { 'app.kubernetes.io/tier': 'web' },
                creationTimestamp: rfc3339(0),
              },
            },
          ],
        },
      ],
      {
        nowMs: NOW,
        labelColumns: ['app.kubernetes.io/tier'],
      },
    );
    expect(out).toBe('NAME   STATUS   AGE   TIER\na               60m   web\n');
  });
});

describe('pod disruption budgets (TestPrintPodDisruptionBudget)', () => {
  const pdb = (name: string, spec: Record<string, unknown>, disruptionsAllowed?: number): KubeObject =>
    ({
      kind: 'PodDisruptionBudget',
      metadata: { namespace: 'ns1', name, creationTimestamp: rfc3339(NOW - 90_000) },
      spec,
      ...(disruptionsAllowed !== undefined ? { status: { disruptionsAllowed, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } } : {}),
    }) as KubeObject;

  it('prints the columns of podDisruptionBudgetColumnDefinitions', () => {
    expect(tableFor('PodDisruptionBudget').headers(false)).toEqual(['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
  });

  it.each<[string, KubeObject, string[]]>([
    ['minAvailable set', pdb('pdb1', { minAvailable: 22 }, 5), ['pdb1', '22', 'N/A', '5', '90s']],
    ['maxUnavailable set', pdb('pdb2', { maxUnavailable: 11 }, 5), ['pdb2', 'N/A', '11', '5', '90s']],
    ['a percentage', pdb('pdb3', { maxUnavailable: '25%' }, 1), ['pdb3', 'N/A', '25%', '1', '90s']],
    ['no status yet', pdb('pdb4', { minAvailable: '50%' }), ['pdb4', '50%', 'N/A', '0', '90s']],
  ])('%s', (_n, obj, expected) => {
    expect(row('PodDisruptionBudget', obj)).toEqual(expected);
  });
});

describe('Endpoints column (printers.go formatEndpoints)', () => {
  const ep = (subsets?: Endpoints['subsets']): Endpoints => ({ metadata: { name: 'x' }, ...(subsets ? { subsets } : {}) });
  const a = (ip: string) => ({ ip });
  it.each<[string, Endpoints, string]>([
    ['no subsets', ep(), '<none>'],
    ['only not-ready addresses print nothing', ep([{ notReadyAddresses: [a('10.0.0.1')], ports: [{ port: 80 }] }]), ''],
    ['ip:port', ep([{ addresses: [a('10.0.0.1'), a('10.0.0.2')], ports: [{ port: 80 }] }]), '10.0.0.1:80,10.0.0.2:80'],
    ['three, then how many more (every port of every address counts)', ep([{ addresses: [a('10.244.0.2'), a('10.244.0.3')], ports: [{ name: 'dns', port: 53 }, { name: 'dns-tcp', port: 53 }, { name: 'metrics', port: 9153 }] }]), '10.244.0.2:53,10.244.0.3:53,10.244.0.2:53 + 3 more...'],
    ['a port-less subset prints bare IPs', ep([{ addresses: [a('10.0.0.1')] }]), '10.0.0.1'],
  ])('%s', (_, obj, want) => {
    expect(formatEndpoints(obj)).toBe(want);
  });
});
