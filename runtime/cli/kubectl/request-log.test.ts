// kubectl -v=6: client-go's "Response" line per round trip (round_trippers.go DebugURLTiming),
// with the URL Request.URL() builds (parameters sorted and query-escaped).
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/index.ts';
import { FakeTransport } from './fake-transport.ts';
import { runKubectl } from './kubectl.ts';
import { requestURL, responseLine } from './request-log.ts';
import type { KubeRequest } from './transport.ts';

const SERVER = 'https://192.168.49.2:8443';
const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };

describe('requestURL', () => {
  it.each<[KubeRequest, string]>([
    [{ verb: 'get', resource: deployments, namespace: 'default', name: 'web' }, `${SERVER}/apis/apps/v1/namespaces/default/deployments/web`],
    [
      { verb: 'create', resource: deployments, namespace: 'default', query: { fieldValidation: 'Strict', fieldManager: 'kubectl-client-side-apply' } },
      `${SERVER}/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`,
    ],
    [
      { verb: 'list', resource: { group: '', version: 'v1', resource: 'pods' }, query: { labelSelector: 'app in (web, db)', fieldSelector: 'spec.nodeName=w-1' } },
      `${SERVER}/api/v1/pods?fieldSelector=spec.nodeName%3Dw-1&labelSelector=app+in+%28web%2C+db%29&limit=500`,
    ],
    [
      { verb: 'get', resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default', name: 'web', subresource: 'log', query: { container: 'nginx', tailLines: 2 } },
      `${SERVER}/api/v1/namespaces/default/pods/web/log?container=nginx&tailLines=2`,
    ],
  ])('%j', (req, url) => expect(requestURL(SERVER, req)).toBe(url));
});

describe('the -v=6 Response lines', () => {
  it('formats one round trip as klog structured logging does', () => {
    expect(responseLine(5_000, 'GET', `${SERVER}/api/v1/pods`, 404, 3)).toBe(
      `I0101 00:00:05.000000   48213 round_trippers.go:632] "Response" verb="GET" url="${SERVER}/api/v1/pods" status="404 Not Found" milliseconds=3\n`,
    );
    expect(responseLine(5_000, 'GET', `${SERVER}/api/v1/pods`, 0, 30_000)).toContain('status="" milliseconds=30000');
  });

  it('kubectl apply -v=6 logs the GET and the POST; without -v nothing is logged', () => {
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}
`;
    const run = (line: string, t: FakeTransport): { stdout: string; stderr: string } => {
      let out = { stdout: '', stderr: '' };
      runKubectl(line, t, { nowMs: 7_000, serverURL: SERVER, stdin: manifest }, (r) => (out = { stdout: r.stdout, stderr: r.stderr }));
      return out;
    };
    const t = new FakeTransport(() => 7_000);
    expect(run('apply -f - -v=6', t)).toEqual({
      stdout: 'deployment.apps/web created\n',
      stderr:
        `I0101 00:00:07.000000   48213 round_trippers.go:632] "Response" verb="GET" url="${SERVER}/apis/apps/v1/namespaces/default/deployments/web" status="404 Not Found" milliseconds=0\n` +
        `I0101 00:00:07.000000   48213 round_trippers.go:632] "Response" verb="POST" url="${SERVER}/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict" status="201 Created" milliseconds=0\n`,
    });
    expect((t.objects.get('apps/deployments/default/web') as Deployment).metadata.name).toBe('web');
    expect(run('get deploy web -v=5', t).stderr).toBe('');
  });
});
