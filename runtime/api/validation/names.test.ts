// Ported from staging/src/k8s.io/apimachinery/pkg/util/validation/validation_test.go
// (TestIsDNS1123Label, TestIsDNS1123Subdomain, TestIsDNS1035Label, TestIsQualifiedName,
// TestIsValidLabelValue, TestIsValidPortName, TestIsConfigMapKey).
import { describe, expect, it } from 'vitest';
import {
  isConfigMapKey,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
} from './names.ts';

const table = (name: string, fn: (s: string) => string[], good: string[], bad: string[]) =>
  describe(name, () => {
    it.each(good)('accepts %j', (s) => expect(fn(s)).toEqual([]));
    it.each(bad)('rejects %j', (s) => expect(fn(s).length).toBeGreaterThan(0));
  });

table(
  'IsDNS1123Label',
  isDNS1123Label,
  ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a'.repeat(63)],
  ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'a'.repeat(64)],
);

table(
  'IsDNS1123Subdomain',
  isDNS1123Subdomain,
  ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a.a', 'ab.a', 'abc.a', 'a1.a', 'a-1.a', 'a--1--2--b.a', 'a.1', 'ab.1', 'abc.1', 'a1.1', 'a-1.1', 'a--1--2--b.1', '0.a', '01.a', '012.a', '1a.a', '1-a.a', '1--a--b--2', '0.1', '01.1', '012.1', '1a.1', '1-a.1', '1--a--b--2.1', 'a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', 'a'.repeat(253)],
  ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a..b', '1.', '.1', '1..2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'A.a', 'aB.a', 'ab.A', 'A1.a', 'a1.A', 'A.1', 'aB.1', 'A1.1', '1A.1', '0.A', '01.A', '012.A', '1A.a', '1a.A', 'A.B.C.D.E', 'AA.BB.CC.DD.EE', 'a.B.c.d.e', 'aa.bB.cc.dd.ee', 'a@b', 'a,b', 'a_b', 'a;b', 'a:b', 'a%b', 'a?b', 'a$b', 'a'.repeat(254)],
);

table(
  'IsDNS1035Label',
  isDNS1035Label,
  ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', 'a'.repeat(63)],
  ['0', '01', '012', '1a', '1-a', '1--a--b--2', '', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'a'.repeat(64)],
);

table(
  'IsQualifiedName',
  isQualifiedName,
  ['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'now-with-dashes/now-with-dashes', 'now.with.dots/simple', 'now-with.dashes-and.dots/simple', '1-num.2-num/3-num', '1234/5678', '1.2.3.4/5678', 'Uppercase_Is_OK_123', 'example.com/Uppercase_Is_OK_123', 'requests.storage-foo', 'a'.repeat(63), 'a'.repeat(253) + '/' + 'b'.repeat(63)],
  ['nospecialchars%^=@', 'cantendwithadash-', '-cantstartwithadash-', 'only/one/slash', 'Example.com/abc', 'example_com/abc', 'example.com/', '/simple', 'a'.repeat(64), 'a'.repeat(254) + '/abc'],
);

table(
  'IsValidLabelValue',
  isValidLabelValue,
  ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), ''],
  ['nospecialchars%^=@', 'Tama-nui-te-rā.is.Māori.sun', '\\backslashes\\are\\bad', '-starts-with-dash', 'ends-with-dash-', '.starts.with.dot', 'ends.with.dot.', 'a'.repeat(64)],
);

table(
  'IsValidPortName',
  isValidPortName,
  ['telnet', 're-mail-ck', 'pop3', 'a', 'a-1', '1-a', 'a-1-b-2-c', '1-a-2-b-3'],
  ['longerthan15characters', '', 'a'.repeat(16), '12345', '1-2-3-4', '-begin', 'end-', 'two--hyphens', 'whois++'],
);

table(
  'IsConfigMapKey',
  isConfigMapKey,
  ['a', 'good', 'good-good', 'still.good', 'this.is.also.good', '.so.is.this', 'THIS_IS_GOOD', 'so_is_this_17'],
  ['.', '..', '..bad', 'b*d', 'bad!&bad'],
);

describe('exact upstream messages', () => {
  it('DNS-1123 label', () => {
    expect(isDNS1123Label('Foo')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
  it('DNS-1123 subdomain', () => {
    expect(isDNS1123Subdomain('Foo')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });
  it('DNS-1035 label', () => {
    expect(isDNS1035Label('1abc')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
  it('qualified names and ports', () => {
    expect(isQualifiedName('example.com/')).toEqual([
      'name part must be non-empty',
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(isValidPortNum(0)).toEqual(['must be between 1 and 65535, inclusive']);
    expect(isValidPortName('-Web')).toEqual([
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must not begin or end with a hyphen',
    ]);
  });
});
