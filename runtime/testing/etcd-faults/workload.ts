// Closed-loop clients for the fault schedules: each client has at most one operation outstanding,
// on a handful of keys, and records every call with its invocation and response times. An
// operation that failed or timed out is recorded as "unknown" with no response time: it may or may
// not have taken effect (a get that failed is simply dropped; it observed nothing).
import type { Kernel, Rng } from '../../kernel/index.ts';
import type { EtcdClient, EtcdError, Result } from '../../etcd/index.ts';
import type { KvInput, KvOutput, Operation } from '../linearizability/index.ts';

export type KvOperation = Operation<KvInput, KvOutput>;

/** A write the cluster acknowledged, with the revision it was given (it must never be lost). */
export interface AckedWrite {
  key: string;
  /** The value written, or null for a delete that removed the key. */
  value: string | null;
  revision: number;
}

export interface WorkloadOptions {
  keys: string[];
  thinkMsMax: number;
  timeoutMs: number;
}

export class WorkloadClient {
  busy = false;
  private stopAtMs = 0;
  private n = 0;

  constructor(
    private readonly kernel: Kernel,
    private readonly client: EtcdClient,
    readonly clientId: number,
    private readonly rng: Rng,
    private readonly opts: WorkloadOptions,
    private readonly history: KvOperation[],
    private readonly acked: AckedWrite[],
    private readonly errors: EtcdError[],
  ) {}

  /** Issues operations back to back (with think time) until `stopAtMs`. */
  runUntil(stopAtMs: number): void {
    this.stopAtMs = stopAtMs;
    this.next();
  }

  private next(): void {
    if (this.kernel.now() >= this.stopAtMs) return;
    this.kernel.setTimer(this.rng.nextInt(this.opts.thinkMsMax + 1), () => {
      if (this.kernel.now() >= this.stopAtMs) return;
      this.issue(this.pickInput());
    });
  }

  private pickInput(): KvInput {
    const key = this.opts.keys[this.rng.nextInt(this.opts.keys.length)]!;
    const value = `c${this.clientId}.${this.n++}`;
    const roll = this.rng.nextInt(100);
    if (roll < 40) return { op: 'get', key };
    if (roll < 75) return { op: 'put', key, value };
    if (roll < 85) return { op: 'delete', key };
    const expected = this.rng.chance(0.3) ? null : `c${this.rng.nextInt(4)}.${this.rng.nextInt(this.n + 1)}`;
    return { op: 'cas', key, expected, value };
  }

  private issue(input: KvInput): void {
    this.busy = true;
    const callMs = this.kernel.now();
    const o = { timeoutMs: this.opts.timeoutMs };
    const done = (output: KvOutput | undefined, failure?: EtcdError): void => {
      this.busy = false;
      if (failure) this.errors.push(failure);
      if (output === undefined) {
        if (input.op !== 'get') this.history.push({ clientId: this.clientId, input, output: { unknown: true }, callMs, returnMs: Infinity });
      } else this.history.push({ clientId: this.clientId, input, output, callMs, returnMs: this.kernel.now() });
      this.next();
    };
    const settle = <T>(r: Result<T>, ok: (v: T) => KvOutput): void => (r.ok ? done(ok(r.value)) : done(undefined, r.error));
    switch (input.op) {
      case 'get':
        return this.client.range({ key: input.key }, (r) => settle(r, (v) => ({ value: v.kvs[0]?.value ?? null })), o);
      case 'put':
        return this.client.put({ key: input.key, value: input.value }, (r) => settle(r, (v) => {
          this.acked.push({ key: input.key, value: input.value, revision: v.header.revision });
          return {};
        }), o);
      case 'delete':
        return this.client.deleteRange({ key: input.key }, (r) => settle(r, (v) => {
          if (v.deleted > 0) this.acked.push({ key: input.key, value: null, revision: v.header.revision });
          return {};
        }), o);
      case 'cas': {
        const compare = input.expected === null
          ? { key: input.key, target: 'VERSION' as const, result: 'EQUAL' as const, operand: 0 }
          : { key: input.key, target: 'VALUE' as const, result: 'EQUAL' as const, operand: input.expected };
        return this.client.txn({ compare: [compare], success: [{ put: { key: input.key, value: input.value } }], failure: [] }, (r) =>
          settle(r, (v) => {
            if (v.succeeded) this.acked.push({ key: input.key, value: input.value, revision: v.header.revision });
            return { succeeded: v.succeeded };
          }), o);
      }
    }
  }
}
