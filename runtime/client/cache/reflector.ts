/**
 * The reflector keeps a local store in step with the API server, mirroring client-go
 * tools/cache/reflector.go (ListAndWatch): list, replace the store, then watch from the list's
 * resourceVersion; apply each event; on a closed stream re-watch from the last resourceVersion
 * seen; on "410 Gone" (the watch cache no longer has that version) relist from scratch; on a
 * failure, retry with exponential back-off. Time comes from the kernel (QueueClock).
 */
import type { KubeObject, Status } from '../../api/index.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';
import { isExpired, type ListerWatcher, type WatchHandle } from './list-watch.ts';
import type { TimerHandle } from '../../kernel/index.ts';

/** Where a reflector writes what it learns (the informer). */
export interface ReflectorSink<T extends KubeObject> {
  /** A full list arrived: the store must become exactly `items`. */
  replace(items: T[], resourceVersion: string): void;
  /** One change from the watch stream (never BOOKMARK or ERROR). */
  apply(event: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }): void;
}

export interface ReflectorOptions {
  /** First retry delay after a failure (client-go: 800 ms), doubling up to maxBackoffMs (30 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Called with a short description of each state change, for the trace. */
  onLog?: (message: string) => void;
}

export class Reflector<T extends KubeObject> {
  private lastSyncResourceVersion = '';
  private watchHandle: WatchHandle | null = null;
  private retryTimer: TimerHandle | null = null;
  private backoffMs: number;
  private stopped = true;
  private synced = false;
  /** Counts list calls, so a reply to an abandoned list is ignored. */
  private generation = 0;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly clock: QueueClock,
    private readonly lw: ListerWatcher<T>,
    private readonly sink: ReflectorSink<T>,
    private readonly options: ReflectorOptions = {},
  ) {
    this.initialBackoffMs = options.initialBackoffMs ?? 800;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.backoffMs = this.initialBackoffMs;
  }

  /** True once the first list has been applied (cache.WaitForCacheSync). */
  get hasSynced(): boolean {
    return this.synced;
  }

  get lastResourceVersion(): string {
    return this.lastSyncResourceVersion;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.relist();
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    this.watchHandle?.stop();
    this.watchHandle = null;
    this.retryTimer?.cancel();
    this.retryTimer = null;
  }

  private relist(): void {
    if (this.stopped) return;
    const generation = ++this.generation;
    this.log('list');
    // After 410 Gone, resourceVersion "" asks for the latest state rather than a version the
    // server no longer has (reflector.go: isLastSyncResourceVersionUnavailable).
    this.lw.list({ resourceVersion: '' }, (result) => {
      if (this.stopped || generation !== this.generation) return;
      if (!result.ok) {
        this.retryLater(`list failed: ${result.error.message}`, () => this.relist());
        return;
      }
      const rv = result.value.metadata.resourceVersion ?? '';
      this.sink.replace(result.value.items, rv);
      this.lastSyncResourceVersion = rv;
      this.synced = true;
      this.backoffMs = this.initialBackoffMs;
      this.startWatch();
    });
  }

  private startWatch(): void {
    if (this.stopped) return;
    const generation = this.generation;
    this.log(`watch from resourceVersion ${this.lastSyncResourceVersion}`);
    this.watchHandle = this.lw.watch(
      { resourceVersion: this.lastSyncResourceVersion, allowWatchBookmarks: true },
      {
        onEvent: (event) => {
          if (this.stopped || generation !== this.generation) return;
          if (event.type === 'ERROR') {
            this.onWatchClosed(event.object);
            return;
          }
          const rv = event.object.metadata.resourceVersion;
          if (event.type !== 'BOOKMARK')
            this.sink.apply({ type: event.type, object: event.object });
          if (rv) this.lastSyncResourceVersion = rv;
        },
        onClose: (error) => {
          if (this.stopped || generation !== this.generation) return;
          this.onWatchClosed(error);
        },
      },
    );
  }

  private onWatchClosed(error: Status | undefined): void {
    this.watchHandle?.stop();
    this.watchHandle = null;
    this.generation++;
    if (isExpired(error)) {
      this.log(`watch expired (${error?.message ?? '410'}): relisting`);
      this.relist();
    } else if (error) {
      this.retryLater(`watch failed: ${error.message}`, () => this.startWatch());
    } else {
      this.startWatch(); // a normal end of stream: resume where we were
    }
  }

  private retryLater(why: string, retry: () => void): void {
    const delayMs = this.backoffMs;
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2);
    this.log(`${why}; retrying in ${delayMs} ms`);
    this.retryTimer = this.clock.setTimer(delayMs, () => {
      this.retryTimer = null;
      retry();
    });
  }

  private log(message: string): void {
    this.options.onLog?.(message);
  }
}
