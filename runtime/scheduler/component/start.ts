// startScheduler: kube-scheduler as a kernel process. mirrors cmd/kube-scheduler/app/server.go
// (Setup: the configuration is validated first, an invalid one stops the process; Run: with
// leader election the scheduler only schedules while it holds kube-system/kube-scheduler, and
// exits when it loses the lease, to be restarted by its kubelet).
import {
  LeaderElector,
  createEventRecorder,
  createEventsRecorder,
  reportingInstanceFor,
  type EventsRecorder,
  type RestClient,
} from '../../client/index.ts';
import { randomUUID, type Kernel, type ProcessContext, type SimProcess } from '../../kernel/index.ts';
import { buildSchedulerConfig, type KubeSchedulerConfiguration } from '../profile.ts';
import type { PluginFactory } from '../plugins/registry.ts';
import type { QueueOptions } from '../queue/scheduling-queue.ts';
import { RunningScheduler } from './scheduler.ts';

/** How long after losing its lease the process comes back (its kubelet restarting the container). */
export const RESTART_AFTER_LEASE_LOSS_MS = 10_000;

export interface SchedulerOptions {
  /** The process name, e.g. "kube-scheduler-cp-1". */
  name: string;
  /** The machine's hostname (events' reportingInstance, the leader election identity's first half); default: the name without "kube-scheduler-". */
  hostname?: string;
  /** The REST client with the scheduler's credentials (client certificate CN system:kube-scheduler). */
  restClient: RestClient;
  /** A learner-supplied KubeSchedulerConfiguration (v1); omitted means the default profile. */
  config?: KubeSchedulerConfiguration;
  /** Out-of-tree plugins the configuration may name (a learner's ScorePlugin, for instance). */
  registry?: Readonly<Record<string, PluginFactory>>;
  /** The kube-scheduler-simulator's client for result annotations (needs update on pods). */
  resultClient?: RestClient;
  /** Lease-based leader election (default on, as kube-scheduler's --leader-elect). */
  leaderElect?: boolean;
  queue?: QueueOptions;
  onLog?: (line: string) => void;
}

export interface SchedulerHandle {
  readonly process: SimProcess;
  /** The scheduler of the current incarnation while it leads, for tests and the UI. */
  running(): RunningScheduler | undefined;
  /** Why the process refused to start (an invalid configuration), else undefined. */
  configErrors(): string[] | undefined;
}

export function startScheduler(kernel: Kernel, options: SchedulerOptions): SchedulerHandle {
  let current: RunningScheduler | undefined;
  let previousStop: (() => void) | undefined;
  let errors: string[] | undefined;
  const log = (ctx: ProcessContext) => (line: string) => {
    ctx.trace('scheduler.log', line);
    options.onLog?.(line);
  };

  const main = (ctx: ProcessContext): void => {
    previousStop?.(); // the old incarnation's informers and timers die with it
    current = undefined;
    const built = buildSchedulerConfig(options.config, options.registry ? { registry: options.registry } : {});
    if (!built.ok) {
      errors = built.errors;
      log(ctx)(`invalid configuration: ${built.errors.join('; ')}`);
      return;
    }
    errors = undefined;
    const clock = { now: ctx.now, setTimer: ctx.setTimer };
    // cmd/kube-scheduler/app/options createClients: events go through their own clientset (eventClient,
    // built from the same kubeconfig), so they have a token bucket of their own
    const { qps, burst } = options.restClient.options;
    const eventClient = qps !== undefined && qps > 0 ? options.restClient.withLimits({ qps, burst: burst ?? 1 }) : options.restClient;
    // leader election keeps the legacy core/v1 recorder, named after the first profile (DeprecatedNewLegacyRecorder)
    const schedulerName = built.config.profiles[0]?.schedulerName ?? 'default-scheduler';
    const hostname = options.hostname ?? options.name.replace(/^kube-scheduler-/, '');
    const recorderFor = profileRecorders(ctx, eventClient, built.config.profiles.map((p) => p.schedulerName), hostname, log(ctx));
    const legacyRecorder = createEventRecorder({ clock, client: eventClient, component: schedulerName });
    const run = (): RunningScheduler => {
      const s = new RunningScheduler({
        ctx,
        client: options.restClient,
        config: built.config,
        recorderFor,
        ...(options.resultClient ? { resultClient: options.resultClient } : {}),
        ...(options.queue ? { queue: options.queue } : {}),
        log: log(ctx),
      });
      s.start();
      return s;
    };
    if (options.leaderElect === false) {
      current = run();
      const s = current;
      previousStop = () => s.stop();
      return;
    }
    const elector = new LeaderElector({
      clock,
      rng: ctx.rng,
      client: options.restClient,
      lock: { namespace: 'kube-system', name: 'kube-scheduler' },
      // options.go: os.Hostname() + "_" + a UUID, new for each process start
      identity: `${hostname}_${randomUUID(ctx.rng.fork(`leader-election-identity-${ctx.incarnation}`))}`,
      recorder: legacyRecorder,
      callbacks: {
        onStartedLeading: () => {
          if (ctx.isLive()) current = run();
        },
        onStoppedLeading: () => {
          if (!ctx.isLive()) return;
          // server.go: "leaderelection lost" is fatal; the kubelet restarts the container
          log(ctx)('leaderelection lost');
          current?.stop();
          current = undefined;
          kernel.setTimer(RESTART_AFTER_LEASE_LOSS_MS, () => {
            const p = kernel.process(options.name);
            if (p && p.incarnation === ctx.incarnation) kernel.restart(options.name);
          });
        },
      },
      onLog: log(ctx),
    });
    previousStop = () => {
      elector.stop();
      current?.stop();
    };
    elector.start();
  };

  const process = kernel.spawn(options.name, main);
  return { process, running: () => current, configErrors: () => errors };
}

/**
 * server.go Setup: the scheduler's events go through events.k8s.io/v1 (NewEventBroadcasterAdapter);
 * each profile records as its schedulerName (getRecorderFactory: NewRecorder(scheme, schedulerName),
 * reportingInstance "<schedulerName>-<hostname>"). Their finish and refresh loops start with the
 * scheduler (StartRecordingToSink), so every profile's recorder is made at once.
 */
function profileRecorders(ctx: ProcessContext, client: RestClient, schedulerNames: string[], hostname: string, onError: (line: string) => void): (schedulerName: string | undefined) => EventsRecorder {
  const recorders = new Map<string, EventsRecorder>();
  const recorderFor = (profile: string | undefined): EventsRecorder => {
    const name = profile || (schedulerNames[0] ?? 'default-scheduler');
    let recorder = recorders.get(name);
    if (!recorder) {
      recorder = createEventsRecorder({
        clock: { now: ctx.now, setTimer: ctx.setTimer }, rng: ctx.rng.fork(`events:${name}`), client,
        reportingController: name, reportingInstance: reportingInstanceFor(name, hostname), onError,
      });
      recorders.set(name, recorder);
    }
    return recorder;
  };
  for (const name of schedulerNames) recorderFor(name);
  return recorderFor;
}
