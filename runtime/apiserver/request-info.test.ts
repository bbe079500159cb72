import { describe, expect, it } from 'vitest';
import { resourceRequestOfPath } from './request-info.ts';

const parse = (path: string) => resourceRequestOfPath({ verb: 'get', path });

// upstream's TestGetAPIRequestInfo cases for GET (requestinfo_test.go), on resources this server serves
describe('resourceRequestOfPath (RequestInfoFactory)', () => {
  it.each([
    ['/api/v1/namespaces', { verb: 'list', group: '', resource: 'namespaces' }],
    ['/api/v1/namespaces/other', { verb: 'get', group: '', resource: 'namespaces', name: 'other' }],
    ['/api/v1/namespaces/other/pods', { verb: 'list', group: '', resource: 'pods', namespace: 'other' }],
    ['/api/v1/namespaces/other/pods/foo', { verb: 'get', group: '', resource: 'pods', namespace: 'other', name: 'foo' }],
    ['/api/v1/pods', { verb: 'list', group: '', resource: 'pods' }],
    ['/api/v1/pods?watch=false', { verb: 'list', group: '', resource: 'pods' }],
    ['/api/v1/namespaces/other/pods/foo/status', { verb: 'get', group: '', resource: 'pods', namespace: 'other', name: 'foo', subresource: 'status' }],
    ['/api/v1/namespaces/other/status', { verb: 'get', group: '', resource: 'namespaces', name: 'other', subresource: 'status' }],
    ['/apis/apps/v1/namespaces/kube-system/deployments/coredns', { verb: 'get', group: 'apps', resource: 'deployments', namespace: 'kube-system', name: 'coredns' }],
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles', { verb: 'list', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' }],
  ])('GET %s', (path, expected) => {
    const r = parse(path);
    expect(r && 'request' in r ? r.request : r).toEqual(expected);
  });

  it('carries the query a GET understands, typed', () => {
    const r = parse('/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=2&fieldSelector=spec.nodeName=worker-1&pretty=true');
    expect(r && 'request' in r && r.request.query).toEqual({ labelSelector: 'app=web', limit: 2, fieldSelector: 'spec.nodeName=worker-1' });
    const log = parse('/api/v1/namespaces/default/pods/web/log?tailLines=2&container=nginx');
    expect(log && 'request' in log && log.request).toMatchObject({ subresource: 'log', query: { tailLines: '2', container: 'nginx' } });
  });

  it('knows a watch, which one answer cannot carry', () => {
    for (const path of ['/api/v1/pods?watch=true', '/api/v1/namespaces/other/pods?watch=1', '/api/v1/watch/pods']) expect(parse(path)).toEqual({ watch: true });
  });

  it('leaves non-resource paths, unknown resources and bad escapes alone', () => {
    for (const path of ['/', '/api', '/api/v1', '/apis/apps/v1', '/apis/apps', '/healthz', '/badprefix/v1/pods', '/api/v1/nopes', '/apis/apps/v2/deployments', '/apis/batch/v1/jobs', '/api/v1/namespaces/default/pods/%zz']) {
      expect(parse(path), path).toBeUndefined();
    }
    expect(resourceRequestOfPath({ verb: 'get', group: '', resource: 'pods' })).toBeUndefined();
  });
});
