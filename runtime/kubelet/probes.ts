// Probe workers, one per container and probe kind, mirroring pkg/kubelet/prober/worker.go: a probe
// runs every periodSeconds (default 10) once initialDelaySeconds have passed since the container
// started; failureThreshold (default 3) failures in a row flip the result to failure, and
// successThreshold (default 1) successes flip it back. Liveness and readiness wait for the startup
// probe. A failed liveness or startup probe kills the container ("will be restarted").
// Each failed attempt is an Unhealthy event (prober.go runProbeWithRetries + recordContainerEvent).
import type { Container, Probe } from '../api/index.ts';
import type { ContainerRuntime } from '../cri/index.ts';
import type { ProcessContext } from '../kernel/index.ts';
import type { ContainerRecord } from './status.ts';

export type ProbeKind = 'liveness' | 'readiness' | 'startup';

export interface ProbeCallbacks {
  /** Readiness or startup changed: re-sync the pod (status). */
  changed(podKey: string): void;
  /** A failed attempt, with the event message ("Readiness probe failed: ..."). */
  unhealthy(podKey: string, container: string, message: string): void;
  /** Liveness or startup gave up: kill the container. */
  kill(podKey: string, container: string, message: string): void;
}

const TITLE: Record<ProbeKind, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

/** The text after "<Kind> probe failed: " for each handler type. */
export function probeFailureOutput(probe: Probe, statusCode: number): string {
  if (probe.httpGet) return `HTTP probe failed with statuscode: ${statusCode}`;
  if (probe.tcpSocket) return `dial tcp: connect: connection refused`;
  if (probe.grpc) return `service unhealthy (responded with "NOT_SERVING")`;
  return '';
}

export class ProbeManager {
  private readonly timers = new Map<string, { cancel(): void }[]>();

  constructor(private readonly ctx: ProcessContext, private readonly cri: ContainerRuntime, private readonly cb: ProbeCallbacks) {}

  containerStarted(podKey: string, c: Container, containerId: string, rec: ContainerRecord): void {
    this.containerStopped(podKey, c.name);
    const handles: { cancel(): void }[] = [];
    const startedAtMs = this.ctx.now();
    const run = (kind: ProbeKind, probe: Probe): void => {
      const periodMs = (probe.periodSeconds ?? 10) * 1000;
      const delayMs = (probe.initialDelaySeconds ?? 0) * 1000;
      const failureThreshold = probe.failureThreshold ?? 3;
      const successThreshold = probe.successThreshold ?? 1;
      let failures = 0;
      let successes = 0;
      const tick = (): void => {
        if (this.ctx.now() - startedAtMs < delayMs) return;
        if (kind !== 'startup' && !rec.started) return;
        if (kind === 'startup' && rec.started) return;
        const result = this.cri.probe(containerId, kind);
        const healthy = probe.tcpSocket ? this.cri.containerStatus(containerId)?.state === 'running' : result.healthy;
        if (healthy) {
          failures = 0;
          if (++successes < successThreshold) return;
          this.verdict(podKey, c.name, kind, rec, true);
          return;
        }
        successes = 0;
        this.cb.unhealthy(podKey, c.name, `${TITLE[kind]} probe failed: ${probeFailureOutput(probe, result.statusCode)}`);
        if (++failures < failureThreshold) return;
        this.verdict(podKey, c.name, kind, rec, false);
        if (kind !== 'readiness') failures = 0;
      };
      // the worker probes at once and then every period; early ticks skip the initial delay
      handles.push(this.ctx.setTimer(0, tick), this.ctx.every(periodMs, tick));
    };
    if (c.startupProbe) run('startup', c.startupProbe);
    if (c.livenessProbe) run('liveness', c.livenessProbe);
    if (c.readinessProbe) run('readiness', c.readinessProbe);
    if (handles.length > 0) this.timers.set(`${podKey}/${c.name}`, handles);
  }

  containerStopped(podKey: string, name: string): void {
    const key = `${podKey}/${name}`;
    for (const h of this.timers.get(key) ?? []) h.cancel();
    this.timers.delete(key);
  }

  private verdict(podKey: string, name: string, kind: ProbeKind, rec: ContainerRecord, healthy: boolean): void {
    if (kind === 'readiness') {
      if (rec.ready !== healthy) {
        rec.ready = healthy;
        this.cb.changed(podKey);
      }
      return;
    }
    if (kind === 'startup' && healthy) {
      rec.started = true;
      this.cb.changed(podKey);
      return;
    }
    if (!healthy) this.cb.kill(podKey, name, `Container ${name} failed ${kind} probe, will be restarted`);
  }
}
