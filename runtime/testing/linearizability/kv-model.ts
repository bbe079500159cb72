// A key-value register model, partitioned by key (each key is an independent register, so the
// search stays small). An operation whose answer never came (timeout, lost connection) has
// `unknown: true`: its effect may or may not have happened.
import type { Model, Operation } from './model.ts';

export type KvInput =
  | { op: 'get'; key: string }
  | { op: 'put'; key: string; value: string }
  | { op: 'delete'; key: string }
  | { op: 'cas'; key: string; expected: string | null; value: string };

export interface KvOutput {
  /** For get: the value read (null: absent). */
  value?: string | null;
  /** For cas: whether the swap happened. */
  succeeded?: boolean;
  /** The client never learned the outcome. */
  unknown?: boolean;
}

type Register = string | null;

export const kvModel: Model<Register, KvInput, KvOutput> = {
  init: () => null,
  step(state, input, output) {
    switch (input.op) {
      case 'get':
        return output.unknown || output.value === state ? [state] : [];
      case 'put':
        return [input.value];
      case 'delete':
        return [null];
      case 'cas': {
        const matches = state === input.expected;
        if (output.unknown) return [matches ? input.value : state];
        if (output.succeeded) return matches ? [input.value] : [];
        return matches ? [] : [state];
      }
    }
  },
  stateKey: (s) => (s === null ? '\u0000' : 'v' + s),
  partition(history) {
    const byKey = new Map<string, Operation<KvInput, KvOutput>[]>();
    for (const op of history) {
      const list = byKey.get(op.input.key) ?? [];
      list.push(op);
      byKey.set(op.input.key, list);
    }
    return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
  },
  describe(input, output) {
    const res = output.unknown ? '(unknown)' : undefined;
    switch (input.op) {
      case 'get':
        return `get(${input.key}) -> ${res ?? JSON.stringify(output.value ?? null)}`;
      case 'put':
        return `put(${input.key}, ${JSON.stringify(input.value)})${res ? ' ' + res : ''}`;
      case 'delete':
        return `delete(${input.key})${res ? ' ' + res : ''}`;
      case 'cas':
        return `cas(${input.key}, ${JSON.stringify(input.expected)} -> ${JSON.stringify(input.value)}) -> ${res ?? String(output.succeeded)}`;
    }
  },
};
