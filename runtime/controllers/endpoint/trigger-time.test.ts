// ComputeEndpointLastChangeTriggerTime (trigger_time_tracker_test.go's cases).
import { describe, expect, it } from 'vitest';
import { rfc3339, type Pod, type Service } from '../../api/index.ts';
import { TriggerTimeTracker } from './trigger-time.ts';

const svc = (createdMs: number): Service => ({ metadata: { name: 's', namespace: 'ns', creationTimestamp: rfc3339(createdMs) }, spec: {} });
const pod = (name: string, readyMs?: number): Pod => ({
  metadata: { name },
  spec: { containers: [] },
  status: readyMs === undefined ? {} : { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(readyMs) }] },
}) as Pod;

describe('TriggerTimeTracker', () => {
  it('a new Service: its creation; then the earliest change since the last computation; nothing changed: zero', () => {
    const t = new TriggerTimeTracker();
    expect(t.compute('ns', svc(1_000), [pod('a', 2_000)])).toBe(1_000);
    expect(t.compute('ns', svc(1_000), [pod('a', 2_000)])).toBe(0);
    // b appears (ready at 5 s) and a changes (ready again at 7 s): the earlier one
    expect(t.compute('ns', svc(1_000), [pod('a', 7_000), pod('b', 5_000)])).toBe(5_000);
    // a pod without a Ready condition triggers nothing
    expect(t.compute('ns', svc(1_000), [pod('a', 7_000), pod('b', 5_000), pod('c')])).toBe(0);
    // a Service created again (deleted and re-made) is a change too
    expect(t.compute('ns', svc(9_000), [pod('a', 7_000), pod('b', 5_000)])).toBe(9_000);
    t.forget('ns', 's');
    expect(t.compute('ns', svc(9_000), [])).toBe(9_000);
  });
});
