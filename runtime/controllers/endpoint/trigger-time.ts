// When the change an Endpoints write reflects happened: the earliest pod or Service change since
// the controller last wrote that Service's Endpoints (its creation, for a Service seen first).
// mirrors pkg/controller/util/endpoint/trigger_time_tracker.go (ComputeEndpointLastChangeTriggerTime,
// getPodTriggerTime: the Ready condition's lastTransitionTime; getServiceTriggerTime: creation).
import { parseRFC3339, type Pod, type Service } from '../../api/index.ts';

interface ServiceState {
  lastPodTriggerTimes: Map<string, number>;
  lastServiceTriggerTime: number;
}

/** Times are simulated ms; 0 is Go's zero time.Time. */
export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** ComputeEndpointLastChangeTriggerTime: 0 when nothing changed. */
  compute(namespace: string, service: Service, pods: readonly Pod[]): number {
    const key = `${namespace}/${service.metadata.name ?? ''}`;
    const known = this.states.get(key);
    const state: ServiceState = known ?? { lastPodTriggerTimes: new Map(), lastServiceTriggerTime: 0 };
    let minChanged = 0;
    const earliest = (t: number): void => {
      if (minChanged === 0 || t < minChanged) minChanged = t;
    };
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (t === 0) continue;
      podTimes.set(pod.metadata.name ?? '', t);
      if (t > (state.lastPodTriggerTimes.get(pod.metadata.name ?? '') ?? 0)) earliest(t);
    }
    const serviceTime = creationTime(service);
    if (serviceTime > state.lastServiceTriggerTime) earliest(serviceTime);
    this.states.set(key, { lastPodTriggerTimes: podTimes, lastServiceTriggerTime: serviceTime });
    return known ? minChanged : serviceTime;
  }

  /** DeleteService: forget a Service that is gone. */
  forget(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}

function podTriggerTime(pod: Pod): number {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.lastTransitionTime ? (parseRFC3339(ready.lastTransitionTime) ?? 0) : 0;
}

function creationTime(service: Service): number {
  return service.metadata.creationTimestamp ? (parseRFC3339(service.metadata.creationTimestamp) ?? 0) : 0;
}
