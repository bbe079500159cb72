// A linearizability checker: Wing & Gong's search with Lowe's memoization, as in Porcupine.
// mirrors anishathalye/porcupine checker.go (checkSingle): call and return events in one time-ordered
// list; repeatedly "lift" a call whose operation can go next, backtrack on a return that nobody
// linearized in time, and never revisit a (linearized set, state) pair already explored
// (G. Lowe, "Testing for linearizability", 2017, section 3).
// The runtime has no wall clock, so the time bound is a budget of search steps.
import type { Model, Operation } from './model.ts';

export type CheckVerdict = 'ok' | 'illegal' | 'unknown-timeout';

export interface CheckResult {
  verdict: CheckVerdict;
  /** On 'illegal': the shortest failing prefix of the offending partition, for a human. */
  explanation?: string;
  /** Search steps used (lifts plus backtracks). */
  steps: number;
}

export interface CheckOptions {
  /** Give up with 'unknown-timeout' after this many search steps in total. */
  maxSteps?: number;
  /** Also compute the minimal failing prefix on 'illegal' (costs extra searches). */
  explain?: boolean;
}

const DEFAULT_MAX_STEPS = 2_000_000;

interface Entry {
  kind: 'call' | 'return';
  id: number;
  timeMs: number;
  match?: Entry; // a call's return entry
  prev: Entry | null;
  next: Entry | null;
}

type PartitionOutcome = { verdict: CheckVerdict; steps: number };

export function checkOperations<S, I, O>(
  model: Model<S, I, O>,
  history: Operation<I, O>[],
  options: CheckOptions = {},
): CheckResult {
  const budget = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const parts = model.partition ? model.partition(history) : [history];
  let steps = 0;
  let timedOut = false;
  for (const part of parts) {
    const r = checkSingle(model, part, budget - steps);
    steps += r.steps;
    if (r.verdict === 'illegal') {
      const explanation = options.explain === false ? undefined : explain(model, part, budget);
      return { verdict: 'illegal', steps, ...(explanation ? { explanation } : {}) };
    }
    if (r.verdict === 'unknown-timeout') timedOut = true;
    if (steps >= budget) return { verdict: 'unknown-timeout', steps };
  }
  return { verdict: timedOut ? 'unknown-timeout' : 'ok', steps };
}

function buildList<I, O>(ops: Operation<I, O>[]): Entry {
  const events: Entry[] = [];
  ops.forEach((op, id) => {
    const call: Entry = { kind: 'call', id, timeMs: op.callMs, prev: null, next: null };
    const ret: Entry = { kind: 'return', id, timeMs: op.returnMs, prev: null, next: null };
    call.match = ret;
    events.push(call, ret);
  });
  // Calls before returns at equal times: touching intervals count as concurrent (the lenient choice).
  events.sort((a, b) => a.timeMs - b.timeMs || (a.kind === b.kind ? a.id - b.id : a.kind === 'call' ? -1 : 1));
  const head: Entry = { kind: 'call', id: -1, timeMs: -Infinity, prev: null, next: null };
  let last = head;
  for (const e of events) {
    last.next = e;
    e.prev = last;
    last = e;
  }
  return head;
}

function lift(call: Entry): void {
  call.prev!.next = call.next;
  if (call.next) call.next.prev = call.prev;
  const ret = call.match!;
  ret.prev!.next = ret.next;
  if (ret.next) ret.next.prev = ret.prev;
}

function unlift(call: Entry): void {
  const ret = call.match!;
  ret.prev!.next = ret;
  if (ret.next) ret.next.prev = ret;
  call.prev!.next = call;
  if (call.next) call.next.prev = call;
}

function checkSingle<S, I, O>(model: Model<S, I, O>, ops: Operation<I, O>[], budget: number): PartitionOutcome {
  const head = buildList(ops);
  const linearized = new Uint8Array(ops.length);
  const cache = new Set<string>();
  // Each frame: the lifted call, the state before it, and the other states still to try.
  const stack: { call: Entry; before: S; alternatives: S[] }[] = [];
  let state = model.init();
  let entry = head.next;
  let steps = 0;
  while (head.next !== null) {
    if (steps++ >= budget) return { verdict: 'unknown-timeout', steps };
    if (entry === null) throw new Error('linearizability invariant: ran off the event list with calls pending');
    if (entry.kind === 'call') {
      const op = ops[entry.id]!;
      const next = model.step(state, op.input, op.output);
      const fresh = next.filter((s) => tryCache(cache, linearized, entry!.id, model.stateKey(s)));
      if (fresh.length > 0) {
        stack.push({ call: entry, before: state, alternatives: fresh.slice(1) });
        linearized[entry.id] = 1;
        state = fresh[0]!;
        lift(entry);
        entry = head.next;
      } else entry = entry.next;
      continue;
    }
    // A return whose call was not linearized yet: the current order cannot work; backtrack.
    let resumed = false;
    while (!resumed) {
      const frame = stack.pop();
      if (!frame) return { verdict: 'illegal', steps };
      if (frame.alternatives.length > 0) {
        state = frame.alternatives.shift()!;
        stack.push(frame);
        entry = head.next;
        resumed = true;
      } else {
        linearized[frame.call.id] = 0;
        unlift(frame.call);
        state = frame.before;
        entry = frame.call.next;
        resumed = true;
      }
    }
  }
  return { verdict: 'ok', steps };
}

function tryCache(cache: Set<string>, linearized: Uint8Array, id: number, stateKey: string): boolean {
  linearized[id] = 1;
  const key = bitsKey(linearized) + '|' + stateKey;
  linearized[id] = 0;
  if (cache.has(key)) return false;
  cache.add(key);
  return true;
}

function bitsKey(bits: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bits.length; i += 16) {
    let word = 0;
    for (let j = i; j < Math.min(i + 16, bits.length); j++) word = word * 2 + bits[j]!;
    out += String.fromCharCode(word + 1);
  }
  return out;
}

/**
 * The shortest prefix (operations in call order) that is already not linearizable, printed one
 * operation per line with its interval, so a reader can see which answer is impossible.
 */
function explain<S, I, O>(model: Model<S, I, O>, ops: Operation<I, O>[], budget: number): string {
  const byCall = [...ops].sort((a, b) => a.callMs - b.callMs || a.clientId - b.clientId);
  for (let n = 1; n <= byCall.length; n++) {
    const prefix = byCall.slice(0, n);
    if (checkSingle(model, prefix, budget).verdict !== 'illegal') continue;
    const shown = prefix.slice(-12);
    const lines = shown.map((op) => {
      const end = op.returnMs === Infinity ? '?' : String(op.returnMs);
      return `  client ${op.clientId} [${op.callMs}, ${end}] ${model.describe(op.input, op.output)}`;
    });
    const skipped = prefix.length - shown.length;
    return [
      `no order of the first ${n} operation(s) is consistent with the model; the last one cannot be placed:`,
      ...(skipped > 0 ? [`  ... ${skipped} earlier operation(s)`] : []),
      ...lines,
    ].join('\n');
  }
  return 'the history is not linearizable, but no prefix of it fails on its own (the whole history is needed)';
}
