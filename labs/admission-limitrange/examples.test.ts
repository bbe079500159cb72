// Visible examples for the admission-limitrange lab: read them, run them, add your own.
// `npm run grade -- admission-limitrange --examples`
import { describe, expect, it } from 'vitest';
import type { LimitRange, Pod, Status } from '../../runtime/api/index.ts';
import type { AdmissionAttributes, AdmissionContext } from '../../runtime/apiserver/index.ts';
import { newLimitRanger, podMutateLimitFunc, podValidateLimitFunc } from '@lab/submission';

// The chapter's LimitRange in team-a, as the API server stores it.
const defaults: LimitRange = {
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'defaults', namespace: 'team-a' },
  spec: {
    limits: [{ type: 'Container', defaultRequest: { cpu: '100m', memory: '64Mi' }, default: { cpu: '500m', memory: '256Mi' } }],
  },
};

const bounds: LimitRange = {
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'bounds', namespace: 'team-a' },
  spec: { limits: [{ type: 'Container', min: { cpu: '100m' }, max: { memory: '1Gi' }, maxLimitRequestRatio: { cpu: '4' } }] },
};

/** A pod as admission receives it (a limit without a request already requests the limit). */
function pod(resources: { requests?: Record<string, string>; limits?: Record<string, string> } = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }] } };
}

describe('examples', () => {
  it('fills in the defaults of a container that set none, and says so in the annotation', () => {
    const p = pod();
    podMutateLimitFunc(defaults, p);
    expect(p.spec.containers[0]!.resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
    expect(p.metadata.annotations).toEqual({
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
    });
  });

  it('never overwrites what the container set', () => {
    const p = pod({ requests: { cpu: '250m' } });
    podMutateLimitFunc(defaults, p);
    expect(p.spec.containers[0]!.resources).toEqual({ requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  });

  it('refuses a request under min, with the upstream message', () => {
    expect(podValidateLimitFunc(bounds, pod({ requests: { cpu: '50m' }, limits: { cpu: '100m', memory: '512Mi' } }))).toBe(
      'minimum cpu usage per Container is 100m, but request is 50m',
    );
  });

  it('refuses a limit over max', () => {
    expect(podValidateLimitFunc(bounds, pod({ requests: { cpu: '500m', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } }))).toBe(
      'maximum memory usage per Container is 1Gi, but limit is 2Gi',
    );
  });

  it('refuses a limit more than maxLimitRequestRatio times the request', () => {
    expect(podValidateLimitFunc(bounds, pod({ requests: { cpu: '200m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }))).toBe(
      'cpu max limit to request ratio per Container is 4, but provided ratio is 5.000000',
    );
  });

  it('lets a pod within bounds through', () => {
    expect(podValidateLimitFunc(bounds, pod({ requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '1', memory: '1Gi' } }))).toBe('');
  });

  it('refuses through the plugin with a 403 that names the pod', () => {
    const ctx: AdmissionContext = {
      cached: () => undefined,
      cachedList: (_group, resource, namespace) => (resource === 'limitranges' && namespace === 'team-a' ? [structuredClone(bounds)] : []),
      liveGet: (_g, _r, _n, _name, cb) => cb(undefined),
      randomSuffix: () => 'abcde',
    };
    const a = {
      operation: 'CREATE',
      resource: { group: '', resource: 'pods', kind: 'Pod' },
      namespace: 'team-a',
      name: 'web',
      object: pod({ limits: { cpu: '50m', memory: '64Mi' }, requests: { cpu: '50m', memory: '64Mi' } }),
      user: { name: 'jane', groups: [] },
      dryRun: false,
    } as unknown as AdmissionAttributes;
    let refusal: Status | undefined;
    newLimitRanger().validate!(a, ctx, (err) => (refusal = err));
    expect(refusal).toMatchObject({ code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: minimum cpu usage per Container is 100m, but request is 50m' });
  });
});
