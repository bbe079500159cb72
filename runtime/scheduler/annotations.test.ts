// goJSON must produce what Go's json.Marshal writes for map[string]... values: sorted keys,
// compact, and <, >, & escaped (encoding/json's default HTML escaping).
import { describe, expect, it } from 'vitest';
import {
  goJSON,
  newCycleRecord,
  put,
  toAnnotations,
  FILTER_RESULT,
  SELECTED_NODE,
} from './annotations.ts';

describe('goJSON', () => {
  it('sorts keys at every level and escapes HTML characters', () => {
    const inner = new Map([
      ['d', '1'],
      ['c', 'a<b & c>d'],
    ]);
    expect(
      goJSON(
        new Map<string, Map<string, string> | string>([
          ['b', 'x'],
          ['a', inner],
        ]),
      ),
    ).toBe('{"a":{"c":"a\\u003cb \\u0026 c\\u003ed","d":"1"},"b":"x"}');
  });
  it('writes string lists and empty maps', () => {
    expect(goJSON(new Map([['NodeAffinity', ['n2', 'n1']]]))).toBe('{"NodeAffinity":["n2","n1"]}');
    expect(goJSON(new Map())).toBe('{}');
  });
  it('an empty record gives the simulator empty annotations', () => {
    const r = newCycleRecord();
    put(r.filter, 'node-b', 'NodeName', 'passed');
    put(r.filter, 'node-a', 'TaintToleration', 'node(s) had untolerated taint {k: v}');
    const a = toAnnotations(r);
    expect(a[FILTER_RESULT]).toBe(
      '{"node-a":{"TaintToleration":"node(s) had untolerated taint {k: v}"},"node-b":{"NodeName":"passed"}}',
    );
    expect(a[SELECTED_NODE]).toBe('');
    expect(a['kube-scheduler-simulator.sigs.k8s.io/score-result']).toBe('{}');
  });
});
