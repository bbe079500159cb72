// ValidatePodUpdate (pkg/apis/core/validation/validation.go): the few pod spec fields an update may
// change, and the errors for everything else.
import { describe, expect, it } from 'vitest';
import { errorString as formatFieldError } from '../field/errors.ts';
import type { Pod, PodSpec } from '../types/core.ts';
import { UPDATABLE_POD_SPEC_FIELDS, validatePodUpdate } from './pod-update.ts';

const pod = (spec: Partial<PodSpec> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' },
  spec: {
    containers: [{ name: 'app', image: 'nginx:1.27' }],
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    ...spec,
  },
});

const texts = (next: Pod, old: Pod): string[] => validatePodUpdate(next, old).map(formatFieldError);

describe('validatePodUpdate', () => {
  const old = pod({ activeDeadlineSeconds: 100, terminationGracePeriodSeconds: -1 });

  it.each<[string, Partial<PodSpec>]>([
    ['nothing changed', {}],
    ['a new image', { containers: [{ name: 'app', image: 'nginx:1.28' }] }],
    ['a lower activeDeadlineSeconds', { activeDeadlineSeconds: 50 }],
    ['an added toleration', { tolerations: [...old.spec.tolerations!, { key: 'x', operator: 'Exists' }] }],
    ['an existing toleration with new tolerationSeconds', { tolerations: [{ ...old.spec.tolerations![0]!, tolerationSeconds: 10 }] }],
    ['terminationGracePeriodSeconds from negative to 1', { terminationGracePeriodSeconds: 1 }],
  ])('allows %s', (_name, change) => {
    expect(texts(pod({ ...old.spec, ...change }), old)).toEqual([]);
  });

  it('compares specs as JSON: key order and fields set to undefined do not count, anything else does', () => {
    const reordered = { nodeName: 'n1', containers: old.spec.containers, tolerations: old.spec.tolerations, activeDeadlineSeconds: 100, terminationGracePeriodSeconds: -1 };
    const base = pod({ ...old.spec, nodeName: 'n1' });
    expect(texts({ ...base, spec: reordered as PodSpec }, base)).toEqual([]);
    expect(texts(pod({ ...base.spec, hostname: undefined }), base)).toEqual([]);
    expect(texts(pod({ ...base.spec, hostname: 'h' }), base)).toHaveLength(1);
    expect(texts(pod({ ...base.spec, nodeName: 'n2' }), base)).toHaveLength(1);
  });

  it('compares resource quantities by value, as apiequality.Semantic does', () => {
    const withCpu = (cpu: string, memory: string): Pod =>
      pod({ ...old.spec, containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu, memory } } }] });
    expect(texts(withCpu('1', '1Gi'), withCpu('1000m', '1024Mi'))).toEqual([]);
    expect(texts(withCpu('2', '1Gi'), withCpu('1000m', '1024Mi'))).toHaveLength(1);
  });

  it.each<[string, Partial<PodSpec>, string]>([
    ['adding a container', { containers: [{ name: 'app', image: 'nginx:1.27' }, { name: 'b', image: 'busybox' }] },
      'spec.containers: Forbidden: pod updates may not add or remove containers'],
    ['an empty image', { containers: [{ name: 'app', image: '' }] }, 'spec.containers[0].image: Required value'],
    ['a higher activeDeadlineSeconds', { activeDeadlineSeconds: 200 }, 'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value'],
    ['a removed toleration', { tolerations: [] }, 'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
  ])('refuses %s', (_name, change, want) => {
    expect(texts(pod({ ...old.spec, ...change }), old)).toEqual([want]);
  });

  it('refuses any other change, naming what may change and then go-cmp\'s diff of the specs', () => {
    const next = pod({ ...old.spec, nodeName: 'worker-1', containers: [{ name: 'app', image: 'nginx:1.28', resources: { limits: { cpu: '1' } } }] });
    const [text, ...rest] = texts(next, old);
    expect(rest).toEqual([]);
    const lines = text!.split('\n');
    expect(lines[0]).toBe(`spec: Forbidden: pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS}`);
    expect(lines[1]).toBe('  core.PodSpec{');
    // the image change is allowed, so munging hides it: only resources and nodeName differ
    expect(lines.filter((l) => /^[-+] /.test(l))).toEqual([
      '- \t\t\t\tLimits:   nil,',
      '+ \t\t\t\tLimits:   core.ResourceList{s"cpu": {i: resource.int64Amount{value: 1}, s: "1", Format: "DecimalSI"}},',
      '- \tNodeName:                     "",',
      '+ \tNodeName:                     "worker-1",',
    ]);
    expect(text!.endsWith('  }\n')).toBe(true);
  });
});
