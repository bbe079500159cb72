import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkOperations } from './checker.ts';
import { kvModel, type KvInput, type KvOutput } from './kv-model.ts';
import type { Operation } from './model.ts';

type Op = Operation<KvInput, KvOutput>;
const put = (c: number, call: number, ret: number, key: string, value: string): Op =>
  ({ clientId: c, callMs: call, returnMs: ret, input: { op: 'put', key, value }, output: {} });
const get = (c: number, call: number, ret: number, key: string, value: string | null): Op =>
  ({ clientId: c, callMs: call, returnMs: ret, input: { op: 'get', key }, output: { value } });
const del = (c: number, call: number, ret: number, key: string): Op =>
  ({ clientId: c, callMs: call, returnMs: ret, input: { op: 'delete', key }, output: {} });
const cas = (c: number, call: number, ret: number, key: string, expected: string | null, value: string, succeeded: boolean): Op =>
  ({ clientId: c, callMs: call, returnMs: ret, input: { op: 'cas', key, expected, value }, output: { succeeded } });
const lost = (op: Op): Op => ({ ...op, returnMs: Infinity, output: { unknown: true } });

describe('checkOperations with the KV model (Porcupine-style table)', () => {
  it.each<[string, Op[], 'ok' | 'illegal']>([
    ['empty history', [], 'ok'],
    ['sequential put then get', [put(0, 0, 10, 'x', '1'), get(1, 20, 30, 'x', '1')], 'ok'],
    ['stale read after a completed put', [put(0, 0, 10, 'x', '1'), get(1, 20, 30, 'x', null)], 'illegal'],
    ['concurrent read may see old or new (old)', [put(0, 0, 100, 'x', '1'), get(1, 10, 20, 'x', null)], 'ok'],
    ['concurrent read may see old or new (new)', [put(0, 0, 100, 'x', '1'), get(1, 10, 20, 'x', '1')], 'ok'],
    ['reads cannot go back in time', [put(0, 0, 100, 'x', '1'), get(1, 10, 20, 'x', '1'), get(2, 30, 40, 'x', null)], 'illegal'],
    ['value never written', [get(0, 0, 10, 'x', 'ghost')], 'illegal'],
    ['delete then read absent', [put(0, 0, 10, 'x', '1'), del(0, 11, 20, 'x'), get(1, 21, 30, 'x', null)], 'ok'],
    ['cas succeeds only once', [put(0, 0, 5, 'x', 'a'), cas(1, 10, 20, 'x', 'a', 'b', true), cas(2, 10, 20, 'x', 'a', 'c', true)], 'illegal'],
    ['cas: one wins one loses', [put(0, 0, 5, 'x', 'a'), cas(1, 10, 20, 'x', 'a', 'b', true), cas(2, 10, 20, 'x', 'a', 'c', false)], 'ok'],
    ['lost put may have happened', [lost(put(0, 0, 10, 'x', '1')), get(1, 50, 60, 'x', '1')], 'ok'],
    ['lost put may not have happened', [lost(put(0, 0, 10, 'x', '1')), get(1, 50, 60, 'x', null)], 'ok'],
    ['lost put cannot flip back and forth', [lost(put(0, 0, 10, 'x', '1')), get(1, 50, 60, 'x', '1'), get(1, 70, 80, 'x', null)], 'illegal'],
    ['keys are independent', [put(0, 0, 10, 'x', '1'), put(1, 0, 10, 'y', '2'), get(2, 20, 30, 'y', '2'), get(2, 40, 50, 'x', '1')], 'ok'],
    ['touching intervals count as concurrent', [put(0, 0, 10, 'x', '1'), get(1, 10, 20, 'x', null)], 'ok'],
  ])('%s -> %s', (_name, history, verdict) => {
    expect(checkOperations(kvModel, history).verdict).toBe(verdict);
  });

  it('explains an illegal history with its shortest failing prefix', () => {
    const r = checkOperations(kvModel, [
      put(0, 0, 10, 'x', '1'),
      get(1, 20, 30, 'x', null),
      put(0, 40, 50, 'x', '2'),
    ]);
    expect(r.verdict).toBe('illegal');
    expect(r.explanation).toBe(
      'no order of the first 2 operation(s) is consistent with the model; the last one cannot be placed:\n' +
        '  client 0 [0, 10] put(x, "1")\n' +
        '  client 1 [20, 30] get(x) -> null',
    );
  });

  it('returns unknown-timeout when the step budget runs out', () => {
    const history: Op[] = [];
    for (let i = 0; i < 12; i++) history.push(put(i, 0, 1000, 'x', String(i)));
    history.push(get(99, 2000, 2001, 'x', 'never'));
    expect(checkOperations(kvModel, history, { maxSteps: 50 }).verdict).toBe('unknown-timeout');
  });

  it('accepts every history produced by a sequential register (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('put', 'get', 'delete'), fc.constantFrom('a', 'b'), fc.nat(3)), { maxLength: 30 }),
        (script) => {
          const state = new Map<string, string>();
          const history: Op[] = script.map(([kind, key, v], i) => {
            if (kind === 'put') {
              state.set(key, String(v));
              return put(i % 3, i * 10, i * 10 + 5, key, String(v));
            }
            if (kind === 'delete') {
              state.delete(key);
              return del(i % 3, i * 10, i * 10 + 5, key);
            }
            return get(i % 3, i * 10, i * 10 + 5, key, state.get(key) ?? null);
          });
          expect(checkOperations(kvModel, history).verdict).toBe('ok');
        },
      ),
      { seed: 7, verbose: true },
    );
  });

  it('rejects a sequential history with one corrupted read (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(5), { minLength: 1, maxLength: 20 }), fc.nat(), (values, pick) => {
        const history: Op[] = [];
        values.forEach((v, i) => history.push(put(0, i * 20, i * 20 + 5, 'k', String(v))));
        const i = pick % values.length;
        history.push(get(1, i * 20 + 10, i * 20 + 12, 'k', 'corrupt'));
        expect(checkOperations(kvModel, history).verdict).toBe('illegal');
      }),
      { seed: 11, verbose: true },
    );
  });
});
