// go-cmp's report of cmp.Diff(oldPod.Spec, mungedPodSpec), as ValidatePodUpdate appends it to its
// Forbidden error. Expected texts follow go-cmp v0.7's rules (report_compare.go: two context
// records either side of a change, "... // N identical fields"; report_text.go: "- "/"+ " then tabs,
// keys aligned; report_reflect.go: zero fields elided, types shown only on changed composites) and
// the shape of real outputs pasted in issues (e.g. "Volumes: {{Name: \"kube-api-access-...\", ...}}").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PodSpec } from '../types/core.ts';
import { goCmpDiff, type GoValue } from './go-cmp-diff.ts';
import { POD_SPEC, toGoValue } from './pod-spec-go.ts';

const spec = (): PodSpec => ({
  volumes: [{ name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { path: 'token' } }], defaultMode: 420 } }],
  containers: [{
    name: 'web', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { limits: { cpu: '500m' } },
    terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always',
  }],
  restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: 'w1',
  schedulerName: 'default-scheduler', enableServiceLinks: true,
});

const diffAfter = (edit: (s: PodSpec) => void): string => {
  const next = structuredClone(spec());
  edit(next);
  return goCmpDiff(toGoValue(spec(), POD_SPEC), toGoValue(next, POD_SPEC));
};

const VOLUMES = '  \tVolumes:        {{Name: "kube-api-access-abcde", VolumeSource: {Projected: &{Sources: {{ServiceAccountToken: &{Path: "token"}}}, DefaultMode: &420}}}},';
const CONTAINERS_TAIL = ['  \t\t},', '  \t},', '  \tEphemeralContainers: nil,', '  \tRestartPolicy:       "Always",', '  \t... // 29 identical fields', '  }', ''];

describe('goCmpDiff of pod specs', () => {
  it.each<[string, (s: PodSpec) => void, string[]]>([
    ['a changed container port', (s) => { s.containers[0]!.ports![0]!.containerPort = 8080; }, [
      '  core.PodSpec{', VOLUMES, '  \tInitContainers: nil,', '  \tContainers: []core.Container{', '  \t\t{',
      '  \t\t\t... // 3 identical fields', '  \t\t\tArgs:       nil,', '  \t\t\tWorkingDir: "",',
      '  \t\t\tPorts: []core.ContainerPort{', '  \t\t\t\t{',
      '  \t\t\t\t\tName:          "",', '  \t\t\t\t\tHostPort:      0,',
      '- \t\t\t\t\tContainerPort: 80,', '+ \t\t\t\t\tContainerPort: 8080,',
      '  \t\t\t\t\tProtocol:      "TCP",', '  \t\t\t\t\tHostIP:        "",', '  \t\t\t\t},', '  \t\t\t},',
      '  \t\t\tEnvFrom: nil,', '  \t\t\tEnv:     nil,', '  \t\t\t... // 16 identical fields', ...CONTAINERS_TAIL,
    ]],
    ['an added env var', (s) => { s.containers[0]!.env = [{ name: 'FOO', value: 'bar' }]; }, [
      '  core.PodSpec{', VOLUMES, '  \tInitContainers: nil,', '  \tContainers: []core.Container{', '  \t\t{',
      '  \t\t\t... // 5 identical fields', '  \t\t\tPorts:        {{ContainerPort: 80, Protocol: "TCP"}},', '  \t\t\tEnvFrom:      nil,',
      '- \t\t\tEnv:          nil,', '+ \t\t\tEnv:          []core.EnvVar{{Name: "FOO", Value: "bar"}},',
      '  \t\t\tResources:    {Limits: {s"cpu": {i: {...}, s: "500m", Format: "DecimalSI"}}},', '  \t\t\tResizePolicy: nil,',
      '  \t\t\t... // 14 identical fields', ...CONTAINERS_TAIL,
    ]],
    ['a new command', (s) => { s.containers[0]!.command = ['sleep', '3600']; }, [
      '  core.PodSpec{', VOLUMES, '  \tInitContainers: nil,', '  \tContainers: []core.Container{', '  \t\t{',
      '  \t\t\tName:       "web",', '  \t\t\tImage:      "nginx",',
      '- \t\t\tCommand:    nil,', '+ \t\t\tCommand:    []string{"sleep", "3600"},',
      '  \t\t\tArgs:       nil,', '  \t\t\tWorkingDir: "",', '  \t\t\t... // 19 identical fields', ...CONTAINERS_TAIL,
    ]],
    ['a changed CPU limit (quantities print as go-cmp prints resource.Quantity)', (s) => { s.containers[0]!.resources!.limits!.cpu = '1'; }, [
      '  core.PodSpec{', VOLUMES, '  \tInitContainers: nil,', '  \tContainers: []core.Container{', '  \t\t{',
      '  \t\t\t... // 6 identical fields', '  \t\t\tEnvFrom: nil,', '  \t\t\tEnv:     nil,',
      '  \t\t\tResources: core.ResourceRequirements{',
      '- \t\t\t\tLimits: core.ResourceList{', '- \t\t\t\t\ts"cpu": {i: resource.int64Amount{value: 500, scale: -3}, s: "500m", Format: "DecimalSI"},', '- \t\t\t\t},',
      '+ \t\t\t\tLimits:   core.ResourceList{s"cpu": {i: resource.int64Amount{value: 1}, s: "1", Format: "DecimalSI"}},',
      '  \t\t\t\tRequests: nil,', '  \t\t\t\tClaims:   nil,', '  \t\t\t},',
      '  \t\t\tResizePolicy:  nil,', '  \t\t\tRestartPolicy: nil,', '  \t\t\t... // 13 identical fields', ...CONTAINERS_TAIL,
    ]],
    ['a new nodeSelector', (s) => { s.nodeSelector = { disk: 'ssd' }; }, [
      '  core.PodSpec{', '  \t... // 6 identical fields',
      '  \tActiveDeadlineSeconds:        nil,', '  \tDNSPolicy:                    "ClusterFirst",',
      '- \tNodeSelector:                 nil,', '+ \tNodeSelector:                 map[string]string{"disk": "ssd"},',
      '  \tServiceAccountName:           "default",', '  \tAutomountServiceAccountToken: nil,', '  \t... // 23 identical fields', '  }', '',
    ]],
    ['an added volume', (s) => { s.volumes!.push({ name: 'data', emptyDir: {} }); }, [
      '  core.PodSpec{', '  \tVolumes: []core.Volume{',
      '  \t\t{Name: "kube-api-access-abcde", VolumeSource: {Projected: &{Sources: {{ServiceAccountToken: &{Path: "token"}}}, DefaultMode: &420}}},',
      '+ \t\t{', '+ \t\t\tName:         "data",', '+ \t\t\tVolumeSource: core.VolumeSource{EmptyDir: &core.EmptyDirVolumeSource{}},', '+ \t\t},',
      '  \t},', '  \tInitContainers: nil,',
      '  \tContainers:     {{Name: "web", Image: "nginx", Ports: {{ContainerPort: 80, Protocol: "TCP"}}, Resources: {Limits: {s"cpu": {i: {...}, s: "500m", Format: "DecimalSI"}}}, ...}},',
      '  \t... // 31 identical fields', '  }', '',
    ]],
    ['a removed volume', (s) => { s.volumes = []; }, [
      '  core.PodSpec{', '- \tVolumes: []core.Volume{',
      '- \t\t{',
      '- \t\t\tName: "kube-api-access-abcde",',
      '- \t\t\tVolumeSource: core.VolumeSource{',
      '- \t\t\t\tProjected: &core.ProjectedVolumeSource{Sources: []core.VolumeProjection{...}, DefaultMode: &420},',
      '- \t\t\t},',
      '- \t\t},', '- \t},', '+ \tVolumes:        []core.Volume{},', '  \tInitContainers: nil,',
      '  \tContainers:     {{Name: "web", Image: "nginx", Ports: {{ContainerPort: 80, Protocol: "TCP"}}, Resources: {Limits: {s"cpu": {i: {...}, s: "500m", Format: "DecimalSI"}}}, ...}},',
      '  \t... // 31 identical fields', '  }', '',
    ]],
  ])('%s', (_name, edit, want) => {
    expect(diffAfter(edit)).toBe(want.join('\n'));
  });

  it('is empty for equal specs, and quantities compare by value (Quantity.Equal)', () => {
    expect(diffAfter(() => {})).toBe('');
    expect(diffAfter((s) => { s.containers[0]!.resources!.limits!.cpu = '0.5'; })).toBe('');
  });

  it('keeps two context records before a change and pluralises the elided ones ("entries")', () => {
    const m = (v: number): GoValue => ({
      kind: 'map', type: 'map[string]int',
      entries: ['a', 'b', 'c', 'd', 'e', 'f'].map((k, i) => [`"${k}"`, { kind: 'prim', type: 'int', value: i === 5 ? v : i }] as const),
    });
    expect(goCmpDiff(m(5), m(6))).toBe('  map[string]int{\n  \t... // 3 identical entries\n  \t"d": 3,\n  \t"e": 4,\n- \t"f": 5,\n+ \t"f": 6,\n  }\n');
  });

  it('reports a difference exactly when the specs differ (property)', () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    const arbSpec = fc.record({
      image: fc.constantFrom('nginx', 'busybox'), port: fc.integer({ min: 1, max: 3 }), sel: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
      cmd: fc.array(fc.constantFrom('sh', '-c', 'sleep'), { maxLength: 3 }),
    }).map(({ image, port, sel, cmd }): PodSpec => ({
      containers: [{ name: 'c', image, ports: [{ containerPort: port }], ...(cmd.length ? { command: cmd } : {}) }],
      ...(sel ? { nodeSelector: { k: sel } } : {}),
    }));
    console.log(`go-cmp-diff property seed ${seed} (replay with FC_SEED=${seed})`);
    fc.assert(fc.property(arbSpec, arbSpec, (a, b) => {
      const diff = goCmpDiff(toGoValue(a, POD_SPEC), toGoValue(b, POD_SPEC));
      expect(diff === '').toBe(JSON.stringify(a) === JSON.stringify(b));
      if (diff) expect(diff.startsWith('  core.PodSpec{\n') && diff.endsWith('  }\n')).toBe(true);
    }), { seed });
  });
});
