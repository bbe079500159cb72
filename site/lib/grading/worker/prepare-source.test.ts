import { describe, expect, it } from 'vitest';
import { escapeLiteral, prepareLearnerSource, sesWouldRefuse } from './prepare-source.ts';
import { LearnerLoadError, loadLearnerModule } from './sandbox.ts';

const load = (source: string) => loadLearnerModule(source, { log: () => undefined }).exports;

// Valid TypeScript that SES's text checks refused before the rebuild: each must load and behave as written.
const accepted: [string, string, unknown][] = [
  ['a comment mentioning import (x)', '// never import (anything) here\nexport const f = () => 1;', 1],
  ['a block comment mentioning import(', '/* import("x") */ export const f = () => 2;', 2],
  ['an arrow-like comment -->', '// a --> b\nexport const f = () => 3;', 3],
  ['an HTML comment opener <!-- in a comment', '/* <!-- */ export const f = () => 4;', 4],
  ['eval( in a comment', '// eval(x) would be wrong\nexport const f = () => 5;', 5],
  ['while (n --> 0)', 'export function f(): number { let n = 3; let steps = 0; while (n --> 0) steps += 1; return steps; }', 3],
  ['n-->0 with no spaces', 'export const f = () => { let n = 2; let s = 0; while (n-->0) s++; return s; };', 2],
  ['a<!--b (less than, not, pre-decrement)', 'export const f = () => { let b = 3; return 1<!--b; };', false],
  ['--> in a string', 'export const f = () => "a --> b".length;', 7],
  ['<!-- in a string', "export const f = () => '<!--'.charCodeAt(1);", 33],
  ['import( in a string', 'export const f = () => "import (x)";', 'import (x)'],
  ['eval( in a string', "export const f = () => 'eval(1)';", 'eval(1)'],
  ['--> in a template', 'export const f = (n = 1) => `${n}-->${n}`;', '1-->1'],
  ['--> in a regular expression', 'export const f = () => /a-->b/.test("a-->b");', true],
  // A regular expression keeps what it matches (its .source shows the escape).
  ['import( in a regular expression', 'export const f = () => /import (x)/.test("import x");', true],
  ['a method named import', 'class K { import(x: number) { return x + 1; } }\nexport const f = () => new K().import(1);', 2],
  ['a method named eval', 'const o = { eval (x: number) { return x * 2; } };\nexport const f = () => o.eval(4);', 8],
  ['a property import called after a line break', 'const o = { import: (x: number) => x };\nexport const f = () => o.\n  import(9);', 9],
  ['a function named $eval', 'const $eval = (x: number) => x + 1;\nexport const f = () => $eval(1);', 2],
  ['a function named my_import', 'function my_import(x: number) { return x * 3; }\nexport const f = () => my_import (2);', 6],
  ['an escaped dash before -->', "export const f = () => '\\-->';", '-->'],
];

describe('prepareLearnerSource', () => {
  it.each(accepted)('accepts %s and keeps its meaning', (_name, source, value) => {
    const { code } = prepareLearnerSource(source);
    expect(sesWouldRefuse(code)).toBe(false);
    expect((load(source).f as () => unknown)()).toEqual(value);
  });

  it('keeps the line of every statement (comments become blanks)', () => {
    const source = '/* one\n two */ const a = 1;\n// three\nexport const b = a + 1; // <!-- four\n';
    const { code } = prepareLearnerSource(source);
    expect(code.split('\n').length).toBe(source.split('\n').length);
    expect(code).not.toMatch(/one|three|four/);
  });

  it('still refuses a real direct eval, at the learner line and column', () => {
    expect(() => load('const x: number = 1;\n\nexport const f = (): number => eval("x");')).toThrow(
      'Your code could not be loaded: SyntaxError: eval(...) cannot be used in lab code (a direct eval cannot run in the sandbox) (line 3, column 32)',
    );
  });

  it('reports a syntax error at the learner line and column', () => {
    expect(() => load('const a: number = 1;\nexport const b = ;\n')).toThrow(/Your code could not be loaded: SyntaxError: .*\(line 2, column 18\)/);
  });

  it('reports a throw at top level with the learner line and column, after removed types', () => {
    const source = 'type T = { a: number };\nconst t: T | null = null as T | null;\nexport const v: number = (t as T).a;\n';
    let error: unknown;
    try {
      load(source);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LearnerLoadError);
    // V8 points at `a` in `(t as T).a` (column 35); the compiled line reads `(t ).a`.
    expect((error as Error).message).toBe("Your code could not be loaded: TypeError: Cannot read properties of null (reading 'a') (line 3, column 35)");
  });

  it('maps compiled columns back past removed type annotations', () => {
    const source = 'export function f(a: number, b: string): number {\n  const c: number = a;\n  return c.toFixed(b as unknown as number) as unknown as number;\n}\n';
    const { code, toSource } = prepareLearnerSource(source);
    const line = code.split('\n')[2]!;
    expect(toSource(3, line.indexOf('toFixed'))).toEqual({ line: 3, column: source.split('\n')[2]!.indexOf('toFixed') + 1 });
  });
});

describe('escapeLiteral', () => {
  it.each([
    ['"-->"', '"--\\x3E"'],
    ["'<!--'", "'<\\x21--'"],
    ['"import ("', '"i\\x6Dport ("'],
    ['`eval(`', '`e\\x76al(`'],
    ['"plain"', '"plain"'],
  ])('%s -> %s', (literal, escaped) => {
    expect(escapeLiteral(literal)).toBe(escaped);
    expect(sesWouldRefuse(escapeLiteral(literal))).toBe(false);
  });
});
