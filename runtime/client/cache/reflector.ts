/**
 * The reflector keeps a local store in step with the API server, mirroring client-go
 * tools/cache/reflector.go (ListAndWatch): list, replace the store, then watch from the list's
 * resourceVersion; apply each event; on a closed stream re-watch from the last resourceVersion
 * seen; on "410 Gone" (the watch cache no longer has that version) relist from scratch; on a
 * failure, retry with exponential back-off. Time comes from the kernel (QueueClock).
 */
import type { KubeObject, Status } from '../../api/index.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';
import { isExpired, isTooLargeResourceVersion, type ListerWatcher, type WatchHandle } from './list-watch.ts';
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
  /** The last list failed as too old or too new (reflector.go isLastSyncResourceVersionUnavailable). */
  private lastSyncResourceVersionUnavailable = false;
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
    this.lw.list({ resourceVersion: this.relistResourceVersion() }, (result) => {
      if (this.stopped || generation !== this.generation) return;
      if (!result.ok) {
        // a list at a version the server no longer has (or does not have yet) is retried at ""
        this.lastSyncResourceVersionUnavailable = isExpired(result.error) || isTooLargeResourceVersion(result.error);
        this.retryLater(`list failed: ${result.error.message}`, () => this.relist());
        return;
      }
      this.lastSyncResourceVersionUnavailable = false;
      const rv = result.value.metadata.resourceVersion ?? '';
      this.sink.replace(result.value.items, rv);
      this.lastSyncResourceVersion = rv;
      this.synced = true;
      this.backoffMs = this.initialBackoffMs;
      this.startWatch();
    });
  }

  /**
   * reflector.go relistResourceVersion: the first list asks for "0", which the API server answers
   * from its watch cache (so thousands of informers starting together do not each read all of
   * etcd); a relist after an expired watch asks for data at least as new as the last version seen;
   * after a list failed on its version, "" asks etcd for the latest state.
   */
  private relistResourceVersion(): string {
    if (this.lastSyncResourceVersionUnavailable) return '';
    return this.lastSyncResourceVersion === '' ? '0' : this.lastSyncResourceVersion;
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
