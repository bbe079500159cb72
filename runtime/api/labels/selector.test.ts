// Table tests ported from staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go and
// pkg/apis/meta/v1/helpers_test.go.
import { describe, expect, it } from 'vitest';
import {
  formatLabelSelector,
  labelSelectorAsSelector,
  lex,
  newRequirement,
  parseSelector,
  parseToLabelSelector,
  Requirement,
  Selector,
  selectorFromSet,
  type Labels,
  type Operator,
  type Token,
} from './selector.ts';

const mustParse = (s: string): Selector => {
  const r = parseSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.selector;
};
const req = (key: string, op: Operator, values: string[] = []): Requirement => {
  const r = newRequirement(key, op, values);
  if (!r.ok) throw new Error(r.error);
  return r.requirement;
};

describe('Parse (TestSelectorParse)', () => {
  const good = [
    'x=a,y=b,z=c',
    '',
    'x!=a,y=b',
    'x=',
    'x= ',
    'x=,z= ',
    'x= ,z= ',
    '!x',
    'x>1',
    'x>1,z<5',
  ];
  it.each(good)('parses %j and prints it back without spaces', (s) => {
    expect(mustParse(s).toString()).toBe(s.replaceAll(' ', ''));
  });
  const bad = ['x=a||y=b', 'x==a==b', '!x=a', 'x<a'];
  it.each(bad)('rejects %j', (s) => {
    expect(parseSelector(s).ok).toBe(false);
  });
  it('is deterministic (TestDeterministicParse)', () => {
    expect(mustParse('x=a,a=x').toString()).toBe(mustParse('a=x,x=a').toString());
  });
});

describe('error messages, word for word', () => {
  const cases: [string, string][] = [
    // '|' is not special, so "a||y" is one identifier and fails as a label value
    [
      'x=a||y=b',
      `unable to parse requirement: values[0][x]: Invalid value: "a||y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    [
      'x<a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x,', "found '', expected: identifier after ','"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['x !! a', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    [
      'app:monolith',
      `unable to parse requirement: <nil>: Invalid value: "app:monolith": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
    [
      'app.kubernetes_io/name=x',
      `unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    [
      'x=-a',
      `unable to parse requirement: values[0][x]: Invalid value: "-a": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
  ];
  it.each(cases)('%j', (input, message) => {
    expect(parseSelector(input)).toEqual({ ok: false, error: message });
  });
});

describe('Matches (TestSelectorMatches)', () => {
  const matches: [string, Labels][] = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['foo=bar', { foo: 'bar', baz: 'blah' }],
    ['baz=blah', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
  ];
  it.each(matches)('%j matches %j', (s, ls) => {
    expect(mustParse(s).matches(ls)).toBe(true);
  });
  const noMatches: [string, Labels][] = [
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['foo=blah', { foo: 'bar', baz: 'blah' }],
    ['baz=bar', { foo: 'bar', baz: 'blah' }],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
  ];
  it.each(noMatches)('%j does not match %j', (s, ls) => {
    expect(mustParse(s).matches(ls)).toBe(false);
  });
  it('matches sets directly (TestSetMatches) and treats empty selectors as Everything', () => {
    const ls = { foo: 'bar', baz: 'blah' };
    const sets: Record<string, string>[] = [
      {},
      { foo: 'bar' },
      { baz: 'blah' },
      { foo: 'bar', baz: 'blah' },
    ];
    for (const set of sets) {
      expect(selectorFromSet(set).matches(ls)).toBe(true);
    }
    expect(selectorFromSet(undefined).empty()).toBe(true);
    expect(Selector.everything().matches({ x: 'y' })).toBe(true);
    expect(Selector.nothing().matches({})).toBe(false);
    expect(Selector.nothing().empty()).toBe(false);
  });
});

describe('Lexer (TestLexer, TestLexerSequence)', () => {
  const single: [string, Token][] = [
    ['', 'EndOfString'],
    [',', 'Comma'],
    ['notin', 'NotIn'],
    ['in', 'In'],
    ['=', 'Equals'],
    ['==', 'DoubleEquals'],
    ['>', 'GreaterThan'],
    ['<', 'LessThan'],
    ['!', 'DoesNotExist'],
    ['!=', 'NotEquals'],
    ['(', 'OpenPar'],
    [')', 'ClosedPar'],
    ['~', 'Identifier'],
    ['||', 'Identifier'],
  ];
  it.each(single)('%j lexes as %s', (s, token) => {
    expect(lex(s)[0]).toEqual({ token, literal: s });
  });
  const sequences: [string, Token[]][] = [
    ['key in ( value )', ['Identifier', 'In', 'OpenPar', 'Identifier', 'ClosedPar']],
    ['key notin ( value )', ['Identifier', 'NotIn', 'OpenPar', 'Identifier', 'ClosedPar']],
    [
      'key in ( value1, value2 )',
      ['Identifier', 'In', 'OpenPar', 'Identifier', 'Comma', 'Identifier', 'ClosedPar'],
    ],
    ['key', ['Identifier']],
    ['!key', ['DoesNotExist', 'Identifier']],
    ['()', ['OpenPar', 'ClosedPar']],
    ['x in (),y', ['Identifier', 'In', 'OpenPar', 'ClosedPar', 'Comma', 'Identifier']],
    [
      '== != (), = notin',
      ['DoubleEquals', 'NotEquals', 'OpenPar', 'ClosedPar', 'Comma', 'Equals', 'NotIn'],
    ],
    ['key>2', ['Identifier', 'GreaterThan', 'Identifier']],
    ['key<1', ['Identifier', 'LessThan', 'Identifier']],
  ];
  it.each(sequences)('%j', (s, tokens) => {
    expect(lex(s).map((i) => i.token)).toEqual([...tokens, 'EndOfString']);
  });
});

describe('NewRequirement (TestRequirementConstructor)', () => {
  const table: [string, string, string[], boolean][] = [
    ['x', 'in', [], false],
    ['x', 'notin', [], false],
    ['x', 'in', ['foo'], true],
    ['x', 'notin', ['foo'], true],
    ['x', 'exists', [], true],
    ['x', '!', [], true],
    ['1foo', 'in', ['bar'], true],
    ['1234', 'in', ['bar'], true],
    ['y', 'gt', ['1'], true],
    ['z', 'lt', ['6'], true],
    ['foo', 'gt', ['bar'], false],
    ['barz', 'lt', ['blah'], false],
    ['a'.repeat(254), 'exists', [], false],
  ];
  it.each(table)('%s %s %j ok=%s', (key, op, values, ok) => {
    expect(newRequirement(key, op, values).ok).toBe(ok);
  });
  it('reports an unsupported operator', () => {
    expect(newRequirement('x', 'like', ['a'])).toEqual({
      ok: false,
      error:
        'operator: Unsupported value: "like": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    });
  });
});

describe('String (TestToString)', () => {
  const table: [Requirement[], string][] = [
    [
      [req('x', 'in', ['abc', 'def']), req('y', 'notin', ['jkl']), req('z', 'exists')],
      'x in (abc,def),y notin (jkl),z',
    ],
    [
      [req('x', 'notin', ['abc', 'def']), req('y', '!=', ['jkl']), req('z', '!')],
      'x notin (abc,def),y!=jkl,!z',
    ],
    [
      [req('x', 'notin', ['abc']), req('y', 'in', ['jkl', 'mno']), req('z', 'notin', [''])],
      'x notin (abc),y in (jkl,mno),z notin ()',
    ],
    [
      [req('x', '=', ['abc']), req('y', '==', ['jkl']), req('z', '!=', ['a']), req('z', 'exists')],
      'x=abc,y==jkl,z!=a,z',
    ],
    [[req('x', 'gt', ['2']), req('y', 'lt', ['8']), req('z', 'exists')], 'x>2,y<8,z'],
    [[req('x', 'in', ['def', 'abc'])], 'x in (abc,def)'],
  ];
  it.each(table)('%#', (reqs, out) => {
    expect(Selector.of(reqs).toString()).toBe(out);
  });
});

describe('requirement matching (TestRequirementSelectorMatching)', () => {
  const table: [Labels, Requirement[], boolean][] = [
    [{ x: 'foo', y: 'baz' }, [req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])], true],
    [{ x: 'foo', y: 'baz' }, [req('x', 'in', ['foo']), req('y', 'in', ['alpha'])], false],
    [{ y: '' }, [req('x', 'notin', ['']), req('y', 'exists')], true],
    [{ y: '' }, [req('x', '!'), req('y', 'exists')], true],
    [{ y: '' }, [req('x', 'notin', ['']), req('y', '!')], false],
    [{ y: 'baz' }, [req('x', 'in', [''])], false],
    [{ z: '2' }, [req('z', 'gt', ['1'])], true],
    [{ z: 'v2' }, [req('z', 'gt', ['1'])], false],
  ];
  it.each(table)('%j %#', (ls, reqs, want) => {
    expect(Selector.of(reqs).matches(ls)).toBe(want);
  });
});

describe('set-based parsing (TestSetSelectorParser)', () => {
  const table: [string, string][] = [
    ['', ''],
    ['\rx', 'x'],
    ['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash'],
    [
      'this-is-another-dns.domain.com/key-with-dash in (so,what)',
      'this-is-another-dns.domain.com/key-with-dash in (so,what)',
    ],
    [
      '0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)',
      '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)',
    ],
    ['foo  in\t (abc)', 'foo in (abc)'],
    ['x notin\n (abc)', 'x notin (abc)'],
    ['x  notin\t\t\t(abc,def)', 'x notin (abc,def)'],
    ['x in (abc,def)', 'x in (abc,def)'],
    ['x in (abc,)', 'x in (,abc)'],
    ['x in ()', 'x in ()'],
    ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
    ['x,y in (a)', 'x,y in (a)'],
    ['x=a', 'x=a'],
    ['x>1', 'x>1'],
    ['x<7', 'x<7'],
    ['x=a,y!=b', 'x=a,y!=b'],
    ['x=a,y!=b,z in (h,i,j)', 'x=a,y!=b,z in (h,i,j)'],
    ['x=a||y=b', ''],
    ['x,,y', ''],
    [',x,y', ''],
    ['x nott in (y)', ''],
    ['x notin ( )', 'x notin ()'],
    ['x notin (, a)', 'x notin (,a)'],
    ['a in (xyz),', ''],
    ['a in (xyz)b notin ()', ''],
    ['a ', 'a'],
    ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'],
    ['a in (xyz abc)', ''],
    ['a notin(', ''],
    ['a (', ''],
    ['(', ''],
  ];
  it.each(table)('%j', (input, printed) => {
    const r = parseSelector(input);
    const valid = printed !== '' || input === '';
    expect(r.ok).toBe(valid);
    if (r.ok) expect(r.selector.toString()).toBe(printed);
  });
});

describe('LabelSelectorAsSelector (helpers_test.go)', () => {
  it('treats nil as Nothing and {} as Everything', () => {
    const nil = labelSelectorAsSelector(undefined);
    expect(nil.ok && nil.selector.isNothing()).toBe(true);
    const empty = labelSelectorAsSelector({});
    expect(empty.ok && empty.selector.empty()).toBe(true);
  });
  it('ANDs matchLabels and matchExpressions, sorted by key', () => {
    const r = labelSelectorAsSelector({
      matchLabels: { foo: 'bar', baz: 'quux' },
      matchExpressions: [{ key: 'foo', operator: 'In', values: ['baz', 'bar'] }],
    });
    expect(r.ok && r.selector.toString()).toBe('baz=quux,foo=bar,foo in (bar,baz)');
  });
  it('reports bad operators and bad values', () => {
    expect(
      labelSelectorAsSelector({ matchExpressions: [{ key: 'foo', operator: 'Foo' as never }] }),
    ).toEqual({
      ok: false,
      error: '"Foo" is not a valid label selector operator',
    });
    expect(
      labelSelectorAsSelector({ matchExpressions: [{ key: 'foo', operator: 'In', values: [] }] }),
    ).toEqual({
      ok: false,
      error:
        "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    });
  });
  it('formats for kubectl', () => {
    expect(formatLabelSelector({ matchLabels: { app: 'web' } })).toBe('app=web');
    expect(formatLabelSelector({})).toBe('<none>');
    expect(
      formatLabelSelector({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }),
    ).toBe('!tier');
  });
});

describe('parseToLabelSelector (metav1.ParseToLabelSelector)', () => {
  it.each([
    ['app=web,tier==db', { matchLabels: { app: 'web', tier: 'db' } }],
    ['env notin (dev,qa),release', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev', 'qa'] }, { key: 'release', operator: 'Exists' }] }],
  ])('%s', (input, want) => expect(parseToLabelSelector(input)).toEqual({ ok: true, selector: want }));
  it.each([
    ['a>1', '"gt" isn\'t supported in label selectors'],
    ['a!=b', '"!=" is not a valid label selector operator'],
  ])('%s is refused', (input, error) => expect(parseToLabelSelector(input)).toEqual({ ok: false, error }));
});
