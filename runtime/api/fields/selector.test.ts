// Ported from staging/src/k8s.io/apimachinery/pkg/fields/selector_test.go (TestSelectorParse,
// TestSelectorMatches, TestSplitTerms, TestEscapeValue) plus the API server's field checks.
import { describe, expect, it } from 'vitest';
import {
  escapeValue,
  fieldSelectorFromSet,
  parseFieldSelector,
  unescapeValue,
} from './selector.ts';
import { checkSelectableFields, selectableFields } from './selectable.ts';

const mustParse = (s: string) => {
  const r = parseFieldSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.selector;
};

describe('field selector parsing', () => {
  it.each(['a=b', 'b=c', 'a=b,b=c', 'a!=b', 'a=\\,b', 'a=\\=b', 'a=\\\\b'])(
    'round-trips %j',
    (s) => {
      expect(mustParse(s).toString()).toBe(s);
    },
  );
  it('prints == as = and sorts terms', () => {
    expect(mustParse('z==1,a=2').toString()).toBe('a=2,z=1');
  });
  it.each([
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['a=b,x', "invalid selector: 'a=b,x'; can't understand 'x'"],
    ['a=b\\c', 'invalid field selector: invalid escape sequence: \\c'],
    ['a=b=c', 'invalid field selector: unescaped character: ='],
  ])('rejects %j', (s, error) => {
    expect(parseFieldSelector(s)).toEqual({ ok: false, error });
  });
  it('matches (TestSelectorMatches)', () => {
    expect(mustParse('').matches({ x: 'y' })).toBe(true);
    expect(mustParse('x=y').matches({ x: 'y' })).toBe(true);
    expect(mustParse('x=y,z=w').matches({ x: 'y', z: 'w' })).toBe(true);
    expect(mustParse('x!=y,z!=w').matches({ x: 'z', z: 'a' })).toBe(true);
    expect(mustParse('x=y').matches({ x: 'z' })).toBe(false);
    expect(mustParse('x=y,z=w').matches({ x: 'w', z: 'w' })).toBe(false);
    expect(mustParse('x!=y,z!=w').matches({ x: 'z', z: 'w' })).toBe(false);
    expect(mustParse('x=').matches({})).toBe(true);
  });
  it('escapes', () => {
    expect(escapeValue('a,b=c\\d')).toBe('a\\,b\\=c\\\\d');
    expect(unescapeValue('a\\,b\\=c\\\\d')).toEqual({ ok: true, value: 'a,b=c\\d' });
    expect(
      fieldSelectorFromSet({ 'spec.nodeName': 'node-1' }).requiresExactMatch('spec.nodeName'),
    ).toBe('node-1');
  });
});

describe('selectable fields', () => {
  const pod = {
    metadata: { name: 'web-1', namespace: 'default' },
    spec: { nodeName: 'node-a', containers: [] },
    status: { phase: 'Running' },
  };
  it('exposes the pod fields kubectl --field-selector uses', () => {
    const f = selectableFields('Pod', pod);
    expect(f['spec.nodeName']).toBe('node-a');
    expect(f['status.phase']).toBe('Running');
    expect(f['spec.hostNetwork']).toBe('false');
    expect(mustParse('status.phase!=Running').matches(f)).toBe(false);
    expect(mustParse('metadata.name=web-1,spec.nodeName=node-a').matches(f)).toBe(true);
  });
  it('rejects fields a kind does not support', () => {
    expect(checkSelectableFields('Pod', ['status.phase'])).toBeUndefined();
    expect(checkSelectableFields('Pod', ['spec.foo'])).toBe('field label not supported: spec.foo');
    expect(checkSelectableFields('Event', ['involvedObject.name', 'reason'])).toBeUndefined();
  });
});
