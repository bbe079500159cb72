import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';
import { shellSplit } from './shell.ts';

const words = (line: string): string[] => {
  const r = shellSplit(line);
  if (!r.ok) throw new Error(r.error);
  return r.words;
};

describe('shellSplit', () => {
  it.each([
    ['get pods -n kube-system', ['get', 'pods', '-n', 'kube-system']],
    [
      "get pods -o jsonpath='{.items[*].metadata.name}'",
      ['get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}'],
    ],
    ['label pod x "a=b c"', ['label', 'pod', 'x', 'a=b c']],
    ['get pods -o jsonpath="{.a}{\\"\\n\\"}"', ['get', 'pods', '-o', 'jsonpath={.a}{"\\n"}']],
    ['a\\ b  c', ['a b', 'c']],
    ["x ''", ['x', '']],
    // a command pasted over several lines: backslash-newline continues the line, outside quotes
    // and inside double quotes (not inside single quotes)
    ['create deployment web \\\n  --image=nginx', ['create', 'deployment', 'web', '--image=nginx']],
    ['get pods\\\n-o wide', ['get', 'pods-o', 'wide']],
    ['label pod x "a=b\\\nc"', ['label', 'pod', 'x', 'a=bc']],
    ["label pod x 'a\\\nb'", ['label', 'pod', 'x', 'a\\\nb']],
    ['get \\\n', ['get']],
  ])('%s', (line, want) => expect(words(line)).toEqual(want));
  it('reports unterminated quotes', () => expect(shellSplit("get 'pods").ok).toBe(false));
});

describe('parseArgs', () => {
  it('parses = and space forms, shorthands, and flags after positionals', () => {
    const r = parseArgs(
      words('get pods -n kube-system --output=wide -l app=web --field-selector spec.nodeName=n1'),
    );
    expect(r.ok && r.args.command).toBe('get');
    if (!r.ok) return;
    expect(r.args.positionals).toEqual(['pods']);
    expect(Object.fromEntries(r.args.flags)).toEqual({
      namespace: 'kube-system',
      output: 'wide',
      selector: 'app=web',
      'field-selector': 'spec.nodeName=n1',
    });
  });
  it('combines boolean shorthands and attached values', () => {
    const r = parseArgs(words('get pods -Aw -owide -nfoo'));
    expect(r.ok && Object.fromEntries(r.args.flags)).toEqual({
      'all-namespaces': true,
      watch: true,
      output: 'wide',
      namespace: 'foo',
    });
  });
  it('finds the command after global flags', () => {
    const r = parseArgs(words('-n prod --as=alice get deploy'));
    expect(r.ok && [r.args.command, r.args.positionals, r.args.flags.get('as')]).toEqual([
      'get',
      ['deploy'],
      'alice',
    ]);
  });
  it('parses subcommands and repeated array flags', () => {
    const r = parseArgs(
      words('rollout undo deployment/web --to-revision=2 --as-group a --as-group b'),
    );
    expect(
      r.ok && [
        r.args.command,
        r.args.positionals,
        r.args.flags.get('to-revision'),
        r.args.flags.get('as-group'),
      ],
    ).toEqual(['rollout undo', ['deployment/web'], 2, ['a', 'b']]);
  });
  it('--dry-run without a value, --dry-run=client', () => {
    const a = parseArgs(words('apply -f - --dry-run=client'));
    expect(a.ok && a.args.flags.get('dry-run')).toBe('client');
    expect(a.ok && a.args.flags.get('filename')).toEqual(['-']);
  });
  it('"--" ends flags', () => {
    const r = parseArgs(words('get -- -weird'));
    expect(r.ok && r.args.positionals).toEqual(['-weird']);
  });
  it.each([
    ['frobnicate', 'error: unknown command "frobnicate" for "kubectl"'],
    // real kubectl suggests "top" for "foo" (Levenshtein distance 2)
    ['foo', 'error: unknown command "foo" for "kubectl"\n\nDid you mean this?\n\ttop\n'],
    [
      'gett pods',
      'error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tget\n\tset\n',
    ],
    ['get pods --foo', "error: unknown flag: --foo\nSee 'kubectl get --help' for usage."],
    [
      'get pods -z',
      "error: unknown shorthand flag: 'z' in -z\nSee 'kubectl get --help' for usage.",
    ],
    [
      'apply -f x.yaml -A',
      "error: unknown shorthand flag: 'A' in -A\nSee 'kubectl apply --help' for usage.",
    ],
    [
      'get pods -n',
      "error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.",
    ],
    [
      'get pods --namespace',
      "error: flag needs an argument: --namespace\nSee 'kubectl get --help' for usage.",
    ],
    [
      'scale deploy/web --replicas=x',
      'error: invalid argument "x" for "--replicas" flag: strconv.ParseInt: parsing "x": invalid syntax\nSee \'kubectl scale --help\' for usage.',
    ],
    ['rollout frob', 'error: unknown command "frob" for "kubectl rollout"'],
    ['auth reconcile -f x.yaml', 'error: "kubectl auth reconcile" is not available in this simulated cluster'],
    // names of Object.prototype's properties are no commands (they used to be found by `in`)
    ['valueOf pods', 'error: unknown command "valueOf" for "kubectl"'],
    ['constructor', 'error: unknown command "constructor" for "kubectl"'],
    ['__proto__ x', 'error: unknown command "__proto__" for "kubectl"'],
    ['rollout toString', 'error: unknown command "toString" for "kubectl rollout"'],
    ['config hasOwnProperty', 'error: unknown command "hasOwnProperty" for "kubectl config"'],
  ])('%s', (line, error) => {
    const r = parseArgs(words(line));
    expect(r.ok ? 'parsed' : r.error).toBe(error);
  });
});
