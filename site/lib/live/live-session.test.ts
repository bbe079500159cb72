// The live session behind the page's widgets: commands and faults are recorded with their
// simulated time, so a rewind or a share link replays them to exactly the same cluster.
import { describe, expect, it } from 'vitest';
import { LiveSession, MAX_TICK_MS } from './live-session.ts';

const scenario = { cluster: { seed: 3, workers: 1 }, files: { 'web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.27}]}
` } };

describe('LiveSession', () => {
  it('runs the reader\'s commands with the scenario\'s files, and ticks in bounded chunks', async () => {
    const s = await LiveSession.open(scenario);
    const applied = await s.command('kubectl apply -f web.yaml');
    expect(applied).toMatchObject({ stdout: 'deployment.apps/web created\n', exitCode: 0 });
    expect(s.tick(60_000)).toBe(MAX_TICK_MS);
    s.tick(MAX_TICK_MS);
    s.tick(MAX_TICK_MS);
    const pods = await s.command('kubectl get pods');
    expect(pods.stdout).toMatch(/web-\S+\s+1\/1\s+Running/);
    const unknown = await s.command('ls -l');
    expect(unknown).toMatchObject({ exitCode: 127 });
    expect(unknown.stderr).toMatch(/command not found/);
  });

  it('rewinds: the state at T after a rewind equals the state at T on a fresh run (by trace hash)', async () => {
    const a = await LiveSession.open(scenario);
    a.tick(1_000);
    await a.command('kubectl apply -f web.yaml');
    a.tick(3_000);
    await a.fault({ kind: 'stopNode', target: 'worker-1' });
    a.tick(4_000);
    const t = a.now;
    const hashAtT = a.traceHash();
    const viewAtT = JSON.stringify(a.view(0).snapshot);
    await a.command('kubectl scale deployment web --replicas=5');
    a.tick(5_000);
    await a.rewindTo(t);
    expect(a.now).toBe(t);
    expect(a.traceHash()).toBe(hashAtT);
    expect(JSON.stringify(a.view(0).snapshot)).toBe(viewAtT);
    expect(a.inputs().map((i) => ('command' in i ? i.command : i.fault.kind))).toEqual(['kubectl apply -f web.yaml', 'stopNode']);
  });

  it('replays a share link\'s inputs to the same cluster', async () => {
    const a = await LiveSession.open(scenario);
    a.tick(2_000);
    await a.command('kubectl apply -f web.yaml');
    a.tick(2_500);
    await a.fault({ kind: 'isolate', targets: ['worker-1'] });
    a.tick(1_000);
    await a.command('kubectl get pods -o wide');
    const shared = JSON.parse(JSON.stringify(a.inputs()));
    const b = await LiveSession.open(scenario);
    await b.replay(shared);
    expect(b.now).toBe(a.now);
    expect(b.traceHash()).toBe(a.traceHash());
    expect(b.view(0).isolated).toEqual(['worker-1']);
  });
});
