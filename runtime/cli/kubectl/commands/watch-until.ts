// One watch that kubectl keeps open until it has what it waits for (watchtools.UntilWithoutRetry's
// shape): the event handler ends it with a value, the server may end it (when `closeEnds`), or the
// simulated window runs out. Whichever comes first ends it, once; the stream is stopped.
// Used by wait, rollout status, logs -f and run's attach. The caller checks canWatch-style support
// (ctx.transport.watch and ctx.io.after) first.
import type { Status } from '../../../api/index.ts';
import type { Ctx } from '../context.ts';
import type { KubeRequest, WatchEvent } from '../transport.ts';

/** How the watch ended: with the handler's value, at the window's end, or closed by the server. */
export type WatchEnd<T> = { value: T } | { timedOut: true } | { closed: Status | undefined };

export interface WatchUntil<T> {
  req: KubeRequest;
  /** Simulated ms before the watch gives up. */
  windowMs: number;
  /** Every event until the end; call `end(value)` to finish with it. */
  onEvent(event: WatchEvent, end: (value: T) => void): void;
  /** Whether the server closing the stream ends the wait (a followed log); otherwise it is ignored. */
  closeEnds?: boolean;
}

export function watchUntil<T>(ctx: Ctx, w: WatchUntil<T>, then: (how: WatchEnd<T>) => void): void {
  let finished = false;
  const finish = (how: WatchEnd<T>): void => {
    if (finished) return;
    finished = true;
    stream.stop();
    then(how);
  };
  const end = (value: T): void => finish({ value });
  const stream = ctx.transport.watch!(
    w.req,
    (event) => {
      if (!finished) w.onEvent(event, end);
    },
    w.closeEnds ? (error) => finish({ closed: error }) : undefined,
  );
  ctx.io.after!(w.windowMs, () => finish({ timedOut: true }));
}
