import { describe, expect, it } from 'vitest';
import { parseFlags, shellSplit } from './argv.ts';
import { base64Utf8, goJson, humanizeBytes, RawNumber, renderTable } from './format.ts';

describe('shellSplit', () => {
  it.each([
    ['put foo bar', ['put', 'foo', 'bar']],
    ['put foo "hello world"', ['put', 'foo', 'hello world']],
    ["put foo 'a \"b\" c'", ['put', 'foo', 'a "b" c']],
    ['put  foo\\ bar  baz', ['put', 'foo bar', 'baz']],
    ['get ""  --prefix', ['get', '', '--prefix']],
    ['put k "say \\"hi\\""', ['put', 'k', 'say "hi"']],
    // backslash-newline continues the line, outside quotes and inside double quotes
    ['put foo \\\n  bar', ['put', 'foo', 'bar']],
    ['put foo "a\\\nb"', ['put', 'foo', 'ab']],
    ["put foo 'a\\\nb'", ['put', 'foo', 'a\\\nb']],
  ])('%j', (line, args) => {
    expect(shellSplit(line)).toEqual({ ok: true, args });
  });
  it('reports an unterminated quote', () => {
    expect(shellSplit('put foo "bar')).toEqual({ ok: false, error: 'unterminated double quote' });
  });
});

describe('parseFlags (pflag texts)', () => {
  const specs = [{ name: 'rev', kind: 'int' as const }, { name: 'prefix', kind: 'bool' as const }, { name: 'write-out', short: 'w', kind: 'string' as const }];
  it.each([
    [['get', 'k', '--rev=3', '--prefix'], { flags: [['rev', 3], ['prefix', true]], positional: ['get', 'k'] }],
    [['-w', 'json', 'get'], { flags: [['write-out', 'json']], positional: ['get'] }],
    [['-wjson'], { flags: [['write-out', 'json']], positional: [] }],
    [['--', '--rev'], { flags: [], positional: ['--rev'] }],
  ] as const)('%j', (args, want) => {
    const r = parseFlags([...args], specs);
    expect(r.ok && { flags: [...r.flags], positional: r.positional }).toEqual(want);
  });
  it.each([
    [['--foo'], 'unknown flag: --foo'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['--rev'], 'flag needs an argument: --rev'],
    [['--rev', 'abc'], 'invalid argument "abc" for "--rev" flag: strconv.ParseInt: parsing "abc": invalid syntax'],
    [['--prefix=maybe'], 'invalid argument "maybe" for "--prefix" flag: strconv.ParseBool: parsing "maybe": invalid syntax'],
  ])('%j fails with %j', (args, error) => {
    expect(parseFlags(args, specs)).toEqual({ ok: false, error });
  });
});

describe('Go formatting', () => {
  it.each([
    [5, '5 B'], [20480, '20 kB'], [25000, '25 kB'], [2_100_000, '2.1 MB'], [1000, '1.0 kB'], [20_500, '20 kB'], [21_500, '22 kB'],
  ])('humanize.Bytes(%i) = %s', (n, s) => {
    expect(humanizeBytes(n)).toBe(s);
  });
  it('encodes base64 over UTF-8 and big integers verbatim', () => {
    expect(base64Utf8('foo')).toBe('Zm9v');
    expect(base64Utf8('bar!')).toBe('YmFyIQ==');
    expect(base64Utf8('é')).toBe('w6k=');
    expect(goJson({ id: new RawNumber('14841639068965178418'), x: undefined })).toBe('{"id":14841639068965178418}');
  });
});

describe('renderTable (tablewriter, right-aligned cells, centered headers)', () => {
  it('draws the box exactly', () => {
    expect(renderTable(['endpoint', 'is leader'], [['127.0.0.1:2379', 'true']])).toBe(
      '+----------------+-----------+\n' +
      '|    ENDPOINT    | IS LEADER |\n' +
      '+----------------+-----------+\n' +
      '| 127.0.0.1:2379 |      true |\n' +
      '+----------------+-----------+\n',
    );
  });
});
