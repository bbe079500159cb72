/**
 * runtime/kernel: the deterministic discrete-event simulator every other subsystem runs on.
 *
 * - `createKernel({ seed })` gives a Kernel: virtual clock (`now()`, integer ms, monotonic), seeded
 *   RNG (`rng`, `rng.fork(label)`), timers (`setTimer`, `every`, cancel handles), run loops
 *   (`runFor(ms)`, `runUntil(timeMs)`, `runUntil(predicate, budget)`, `runUntilIdle(budget)`, `step()`),
 *   the network (`net`: register/send, latency, loss, duplication, reordering, partition, block,
 *   heal), processes (`spawn(name, main)`, `crash`, `restart`; each with a Disk kept across
 *   crashes), and the trace (`trace.record`, `trace.events()`, `trace.hash()`).
 * - `FifoMemo`: a Map bounded to its newest entries, evicting oldest first in O(1) (the memos of
 *   every layer use it).
 * - The kernel is synchronous: results of remote operations arrive as callbacks run by the kernel.
 *   Never `await` inside the runtime.
 */
export { VirtualClock } from './clock.ts';
export { createRng, fnv1a32, randomUUID, splitmix32, type Rng } from './rng.ts';
export { EventQueue, SimEvent } from './event-queue.ts';
export { Trace, type TraceEvent, type TraceListener, type TraceOptions } from './trace.ts';
export {
  DEFAULT_LINK,
  SimNetwork,
  type LinkConfig,
  type MessageHandler,
  type NetworkHost,
  type NetworkStats,
} from './network.ts';
export { Disk } from './disk.ts';
export { SimProcess, type ProcessContext, type ProcessHost, type ProcessMain } from './process.ts';
export { Kernel, createKernel, type KernelOptions, type TimerHandle } from './kernel.ts';
export { FifoMemo } from './fifo-memo.ts';
