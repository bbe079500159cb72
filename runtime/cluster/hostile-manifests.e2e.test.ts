// Manifests the property test (terminal-never-throws.property.test.ts) found breaking the cluster:
// each is answered as real kubectl and the API server answer it, and 30 s later the components
// that meet the object (scheduler, kubelet, disruption controller) are still running.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const cluster = createCluster({ seed: 12, topology: 'single-node' });

const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata: {name: api}\nspec: {selector: {app: api}, ports: [{port: 80}]}\n';

describe('hostile manifests, through the whole cluster', { timeout: 120_000 }, () => {
  it.each([
    [
      'a container that is null (the scheduler threw on it)',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\nspec: {containers: [{name: c, image: nginx}, null]}\n',
      'The Pod "p1" is invalid: \n* spec.containers[1].name: Required value\n* spec.containers[1].image: Required value\n',
    ],
    [
      'a template container that is null',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d1}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [null]}}}\n',
      'The Deployment "d1" is invalid: \n* spec.template.spec.containers[0].name: Required value\n* spec.template.spec.containers[0].image: Required value\n',
    ],
    [
      'volume mounts that are not a list (the kubelet threw on them)',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p2}\nspec: {containers: [{name: c, image: nginx, volumeMounts: {name: v}}]}\n',
      'The Pod "p2" is invalid: spec.containers[0].volumeMounts: Invalid value: map[string]string{"name":"v"}: expected an array\n',
    ],
    [
      'a Deployment of 2^31 replicas',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d2}\nspec: {replicas: 2147483648, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx}]}}}\n',
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32\n',
    ],
    [
      'an alias bomb',
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n  a: &a [x,x,x,x,x,x,x,x,x]\n${'bcdefghi'.split('').map((l, i) => `  ${l}: &${l} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`).join('\n')}\n`,
      'error: error parsing STDIN: error converting YAML to JSON: yaml: document contains excessive aliasing\n',
    ],
  ])('%s', async (_, manifest, stderr) => {
    expect(await cluster.kubectl('apply -f -', { stdin: manifest })).toEqual({ stdout: '', stderr, exitCode: 1 });
    await cluster.advance(30_000);
    expect((await cluster.kubectl('get nodes')).exitCode).toBe(0);
  });

  it.each([
    // the disruption controller threw on every sync of a budget with no spec
    ['a PodDisruptionBudget with no spec', 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: nospec}\n', 'poddisruptionbudget.policy/nospec created\n'],
    // the kubelet's probe timer threw on a 0 s period (SetDefaults_Probe takes 0 for unset)
    ['a probe with a 0 s period', 'apiVersion: v1\nkind: Pod\nmetadata: {name: probe}\nspec: {containers: [{name: c, image: nginx, livenessProbe: {exec: {command: ["true"]}, periodSeconds: 0}}]}\n', 'pod/probe created\n'],
  ])('%s is taken, and nothing breaks', async (_, manifest, stdout) => {
    expect(await cluster.kubectl('apply -f -', { stdin: manifest })).toEqual({ stdout, stderr: '', exitCode: 0 });
    await cluster.advance(30_000);
    expect((await cluster.kubectl('get nodes')).exitCode).toBe(0);
  });

  it('a Service update whose ports are not a list is refused by validation (it was a 500 from the node port allocator)', async () => {
    expect((await cluster.kubectl('apply -f -', { stdin: SERVICE })).exitCode).toBe(0);
    const r = await cluster.kubectl('apply -f -', { stdin: SERVICE.replace('ports: [{port: 80}]', 'ports: ""') });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('The Service "api" is invalid: \n* spec.ports: Invalid value: "": expected an array\n* spec.ports: Required value\n');
  });

  // a lone surrogate once made encodeURIComponent throw in the REST client, and "%ff" in a health
  // check's query decodeURIComponent in the API server (a 500 "URI malformed"); "%zz" real kubectl's
  // url.Parse refuses before sending anything
  it.each([
    ['get pods --field-selector=\ud800', 1, "Error from server (BadRequest): invalid selector: '\ud800'; can't understand '\ud800'\n"],
    ['get --raw /api/%zz', 1, 'error: parse "/api/%zz": invalid URL escape "%zz"\n'],
    ["get --raw '/livez?exclude=%ff'", 0, ''],
  ])('kubectl %j', async (line, exitCode, stderr) => {
    const r = await cluster.kubectl(line);
    expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode, stderr });
  });
});
