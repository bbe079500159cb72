import { describe, expect, it } from 'vitest';
import { resolveResourceArgs, typePrefix } from './resources.ts';

const summary = (args: string[]) => {
  const r = resolveResourceArgs(args);
  return r.ok ? r.requests.map((q) => `${q.info.resource}:${q.names.join('+')}`) : r.error;
};

describe('resolveResourceArgs', () => {
  it.each([
    [['pods'], ['pods:']],
    [['po', 'a', 'b'], ['pods:a+b']],
    [['deploy/web'], ['deployments:web']],
    [
      ['pod/a', 'svc/b', 'pod/c'],
      ['pods:a+c', 'services:b'],
    ],
    [['pods,svc'], ['pods:', 'services:']],
    [['Deployment.apps', 'web'], ['deployments:web']],
    [['events'], ['events:']],
    [['all'], ['pods:', 'services:', 'deployments:', 'replicasets:', 'daemonsets:']],
  ])('%j', (args, want) => expect(summary(args)).toEqual(want));
  it.each([
    [['foo'], 'error: the server doesn\'t have a resource type "foo"'],
    [
      ['pods', 'pod/x'],
      expect.stringContaining('there is no need to specify a resource type as a separate argument'),
    ],
  ])('%j fails', (args, want) => expect(summary(args)).toEqual(want));
});

describe('typePrefix', () => {
  it('adds the group except for the core group', () => {
    expect(typePrefix({ kind: 'Deployment', group: 'apps' })).toBe('deployment.apps');
    expect(typePrefix({ kind: 'Pod', group: '' })).toBe('pod');
  });
});
