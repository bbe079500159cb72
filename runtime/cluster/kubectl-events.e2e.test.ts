// kubectl events on a live cluster: the list a learner reads after `kubectl run`, and -w following
// new events as the kubelet reports them.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

describe('kubectl events', () => {
  it("lists a new pod's life in order and follows it with -w", async () => {
    const cluster = createCluster({ seed: 8 });
    await cluster.advance(5_000);
    await cluster.kubectl('run web --image=nginx:1.27');
    await cluster.advance(10_000);
    const listed = await cluster.kubectl('events --for pod/web');
    expect(listed.exitCode).toBe(0);
    const reasons = listed.stdout.trim().split('\n').slice(1).map((l) => l.split(/ {3,}/)[2]);
    // oldest first; the kubelet's core/v1 times are whole seconds and the scheduler's events.k8s.io
    // eventTime is microseconds, so within one second Scheduled may sort after Pulling, as in kubectl
    expect([...reasons].sort()).toEqual(['Created', 'Pulled', 'Pulling', 'Scheduled', 'Started']);
    expect(reasons.at(-1)).toBe('Started');
    expect(listed.stdout).toMatch(/\n\d+s +Normal +Scheduled +Pod\/web +Successfully assigned default\/web to \S+\n/);
    // -w prints what arrives while it watches (and what exists when it starts: a watch from "now")
    cluster.internals.kernel.setTimer(2_000, () => {
      void cluster.kubectl('delete pod web --wait=false');
    });
    const watched = await cluster.kubectl('events -w --for pod/web');
    const lines = watched.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/);
    expect(lines.some((l) => / Killing +Pod\/web +Stopping container web$/.test(l))).toBe(true);
  });
});
