// Learner TypeScript -> the code a Compartment evaluates, the same on both hosts (the grading
// worker in the page, the grading CLI in Node).
//
// 1. sucrase strips the types (a few ms, ~45 KB gzip) and turns imports into require() calls
//    (type-only imports vanish; the sandbox refuses or serves what remains). Sucrase keeps lines.
// 2. SES refuses, by a regular expression over the whole text, any source that contains `<!--`,
//    `-->`, `import(` or `eval(` anywhere, comments and strings included: a comment mentioning
//    `import (x)` or the idiom `while (n --> 0)` made correct code fail in the page only. So the
//    sucrase output is tokenized and rebuilt where those checks cannot misfire: comments become
//    blanks (newlines kept), adjacent tokens that would spell `-->` or `<!--` get a space between
//    them, string, template and regular-expression literals spell the dangerous characters as
//    escapes (same value), and a method or property named `import`/`eval` becomes a computed key.
//    What still trips SES after that (a direct `eval(...)` call) is really refused.
// 3. Every position in the evaluated code maps back to the learner's own line and column, through
//    sucrase's source map and the edits of step 2, for syntax errors, refusals and stack frames.
import { transform } from 'sucrase';
import { parse } from 'sucrase/dist/esm/parser/index.js';
import { IdentifierRole } from 'sucrase/dist/esm/parser/tokenizer/index.js';
import { TokenType as tt } from 'sucrase/dist/esm/parser/tokenizer/types.js';

/** A 1-based line and 1-based column in the learner's source. */
export interface SourcePosition {
  line: number;
  column: number;
}

export interface PreparedSource {
  /** A CommonJS-style module body (uses `exports`, `require`, `module`). */
  code: string;
  /** The learner's position of a 1-based line and 0-based column of `code`, when it maps to one. */
  toSource(line: number, column: number): SourcePosition | undefined;
  transpileMs: number;
}

/** A problem in the learner's source, with where it is. */
export class LearnerSyntaxError extends SyntaxError {
  constructor(
    readonly reason: string,
    readonly position: SourcePosition | undefined,
  ) {
    super(position ? `${reason} (line ${position.line}, column ${position.column})` : reason);
    // defineProperty, not assignment: after lockdown the inherited `name` is read-only.
    Object.defineProperty(this, 'name', { value: 'SyntaxError', writable: true, configurable: true });
  }
}

/** SES's own patterns (ses/src/transforms.js), used to decide what to rewrite. */
const HTML_COMMENT = /<!--|-->/;
const IMPORT_EXPRESSION = /(^|[^.]|\.\.\.)\bimport(\s*(?:\(|\/[/*]))/;
const DIRECT_EVAL = /(^|[^.])\beval(\s*\()/;

export function prepareLearnerSource(source: string): PreparedSource {
  const startMs = performance.now();
  let transformed: { code: string };
  try {
    transformed = transform(source, {
      transforms: ['typescript', 'imports'],
      filePath: 'submission.ts',
      disableESTransforms: true,
      production: true,
    });
  } catch (error) {
    throw sucraseError(error);
  }
  const compiled = transformed.code;
  const rebuilt = rebuildForSes(compiled);
  const finalLines = lineStarts(rebuilt.code);
  let positions: PositionMap | undefined; // built on the first error: most runs never need it
  const toSource = (line: number, column: number): SourcePosition | undefined => {
    const lineStart = finalLines[line - 1];
    if (lineStart === undefined) return undefined;
    positions ??= new PositionMap(source, compiled);
    return positions.toSource(rebuilt.toCompiledOffset(lineStart + column));
  };
  // What SES would still refuse is real code (a direct `eval(...)` call): refuse it here, at the
  // learner's line and column (SES's own message has a line of the evaluated text only).
  const refused = firstRefusal(rebuilt.code);
  if (refused) {
    positions ??= new PositionMap(source, compiled);
    throw new LearnerSyntaxError(refused.reason, positions.toSource(rebuilt.toCompiledOffset(refused.offset)));
  }
  return { code: rebuilt.code, toSource, transpileMs: performance.now() - startMs };
}

function sucraseError(error: unknown): LearnerSyntaxError {
  const raw = error instanceof Error ? error.message : String(error);
  const reason = raw.replace(/^Error transforming [^:]*: /, '').replace(/ \(\d+:\d+\)$/, '');
  const loc = (error as { loc?: { line?: unknown; column?: unknown } } | null)?.loc;
  const position = typeof loc?.line === 'number' && typeof loc.column === 'number' ? { line: loc.line, column: loc.column } : undefined;
  return new LearnerSyntaxError(reason, position);
}

// ---------------------------------------------------------------------------------------------
// Rebuilding the compiled code so SES's text checks see no comment, string or property name.

interface Rebuilt {
  code: string;
  /** The offset in the compiled code a rebuilt offset came from (a rewritten token maps to its start). */
  toCompiledOffset(offset: number): number;
}

/** Pieces of the rebuilt code: each starts at `at` in the rebuilt text and `from` in the compiled text. */
interface Anchor {
  at: number;
  from: number;
  /** True when the piece is a copy (offsets inside it map one to one). */
  exact: boolean;
}

export function rebuildForSes(compiled: string): Rebuilt {
  if (!sesWouldRefuse(compiled)) return { code: compiled, toCompiledOffset: (offset) => offset };
  let tokens: Tokens;
  try {
    tokens = parse(compiled, false, false, false).tokens;
  } catch {
    // Not expected (sucrase parsed the source already): leave the text to SES's own checks.
    return { code: compiled, toCompiledOffset: (offset) => offset };
  }
  const out: string[] = [];
  const anchors: Anchor[] = [];
  let length = 0;
  let tail = '';
  const emit = (text: string, from: number, exact: boolean) => {
    if (text.length === 0) return;
    anchors.push({ at: length, from, exact });
    out.push(text);
    length += text.length;
    tail = (tail + text).slice(-3);
  };
  const blank = (text: string) => text.replace(/[^\n\r\u2028\u2029]/g, ' ');
  let position = 0;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.type === tt.eof) break;
    // The gap before the token holds only whitespace and comments: comments become spaces.
    const gap = compiled.slice(position, token.start);
    emit(blank(gap), position, true);
    const original = compiled.slice(token.start, token.end);
    let text = original;
    if (token.type === tt.string || token.type === tt.template || token.type === tt.regexp) text = escapeLiteral(text);
    else if (token.type === tt.name) text = escapeName(tokens, index, text);
    // Tokens that touch must not spell `-->` or `<!--` across their boundary (`n-->0`, `a<!--b`).
    if (gap.length === 0 && HTML_COMMENT.test(tail + text.slice(0, 3))) emit(' ', token.start, false);
    emit(text, token.start, text === original);
    position = token.end;
  }
  emit(blank(compiled.slice(position)), position, true);
  return {
    code: out.join(''),
    toCompiledOffset(offset) {
      let low = 0;
      let high = anchors.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (anchors[mid]!.at <= offset) low = mid;
        else high = mid - 1;
      }
      const anchor = anchors[low];
      if (!anchor) return offset;
      return anchor.exact ? anchor.from + (offset - anchor.at) : anchor.from;
    },
  };
}

type Tokens = ReturnType<typeof parse>['tokens'];

/**
 * A name that ends in the word `import` or `eval` (`{ import() {} }`, `class { eval() {} }`,
 * `a. import(...)`, `$eval(...)`): SES would take `import (` or `eval (` for an import expression or
 * a direct eval. The same name is spelled with a unicode escape (`i\\u006Dport`, `$e\\u0076al`),
 * which JavaScript reads as the same identifier or property. A call of the variable `eval` itself
 * is a direct eval and stays as it is (then refused).
 */
function escapeName(tokens: Tokens, index: number, name: string): string {
  const word = /\b(?:eval|import)$/.exec(name);
  if (!word) return name;
  const before = tokens[index - 1];
  const isMember = before !== undefined && (before.type === tt.dot || before.type === tt.questionDot);
  if (name === 'eval' && !isMember && tokens[index]!.identifierRole === IdentifierRole.Access) return name;
  const at = word.index + 1;
  return `${name.slice(0, at)}\\u${name.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}${name.slice(at + 1)}`;
}

/**
 * A literal's text with every character that lets SES's patterns match spelled as an escape:
 * `-->` as `--\x3E`, `<!--` as `<\x21--`, `import(` as `i\x6Dport(`, `eval(` as `e\x76al(`. The
 * replaced character is never the one after a backslash (it always follows a plain letter or
 * `<`/`-`), and `\xHH` means the same character in strings, templates and regular expressions.
 */
export function escapeLiteral(text: string): string {
  let result = text;
  for (let guard = 0; guard < 10_000; guard += 1) {
    const html = result.match(/<!--|-->/);
    if (html?.index !== undefined) {
      const at = html[0] === '-->' ? html.index + 2 : html.index + 1;
      result = `${result.slice(0, at)}${hexEscape(result[at]!)}${result.slice(at + 1)}`;
      continue;
    }
    const word = result.match(/\b(import|eval)(?=\s*(?:\(|\/[/*]))/);
    if (word?.index !== undefined) {
      const at = word.index + 1;
      result = `${result.slice(0, at)}${hexEscape(result[at]!)}${result.slice(at + 1)}`;
      continue;
    }
    return result;
  }
  return result;
}

function hexEscape(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Positions. Sucrase keeps every line where it was but removes types, so columns move. (Its
// source maps lose track after a template literal, so they are not used.) Tokens are aligned per
// line: the compiled line's tokens are matched in order with the source line's tokens of the same
// text; a compiled token with no match (`exports.k` for `k`) takes the column of the last match.

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** The 0-based line containing `offset`, given the line starts. */
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

interface LineToken {
  text: string;
  /** 0-based column. */
  column: number;
}

function tokensByLine(code: string, typescript: boolean): LineToken[][] {
  const starts = lineStarts(code);
  const lines: LineToken[][] = starts.map(() => []);
  let tokens: Tokens;
  try {
    tokens = parse(code, false, typescript, false).tokens;
  } catch {
    return lines;
  }
  for (const token of tokens) {
    if (token.type === tt.eof) break;
    const line = lineOf(starts, token.start);
    lines[line]!.push({ text: code.slice(token.start, token.end), column: token.start - starts[line]! });
  }
  return lines;
}

export class PositionMap {
  private readonly compiledStarts: number[];
  private readonly compiledTokens: LineToken[][];
  private readonly sourceTokens: LineToken[][];

  constructor(source: string, compiled: string) {
    this.compiledStarts = lineStarts(compiled);
    this.compiledTokens = tokensByLine(compiled, false);
    this.sourceTokens = tokensByLine(source, true);
  }

  /** The learner's 1-based line and column of an offset in the compiled code. */
  toSource(compiledOffset: number): SourcePosition {
    const line = lineOf(this.compiledStarts, compiledOffset);
    const column = compiledOffset - this.compiledStarts[line]!;
    const compiled = this.compiledTokens[line] ?? [];
    const source = this.sourceTokens[line] ?? [];
    const matches = alignTokens(compiled, source);
    let mapped: SourcePosition = { line: line + 1, column: (source[0]?.column ?? column) + 1 };
    compiled.forEach((token, index) => {
      const match = matches[index];
      if (token.column > column || match === undefined) return;
      const inside = column < token.column + token.text.length ? column - token.column : 0;
      mapped = { line: line + 1, column: source[match]!.column + inside + 1 };
    });
    return mapped;
  }
}

/** A longest common subsequence of two token lists by text: for each `a` token, its `b` index or undefined. */
function alignTokens(a: readonly LineToken[], b: readonly LineToken[]): (number | undefined)[] {
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] = a[i]!.text === b[j]!.text ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const result: (number | undefined)[] = new Array(a.length).fill(undefined);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.text === b[j]!.text) {
      result[i] = j;
      i += 1;
      j += 1;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i += 1;
    else j += 1;
  }
  return result;
}

/** Where SES's source checks would refuse `code`, and why, in the learner's words. */
function firstRefusal(code: string): { offset: number; reason: string } | undefined {
  const evalCall = new RegExp(DIRECT_EVAL.source).exec(code);
  if (evalCall) return { offset: evalCall.index + evalCall[1]!.length, reason: 'eval(...) cannot be used in lab code (a direct eval cannot run in the sandbox)' };
  const importCall = new RegExp(IMPORT_EXPRESSION.source).exec(code);
  if (importCall) return { offset: importCall.index + importCall[1]!.length, reason: 'import(...) cannot be used in lab code' };
  const html = HTML_COMMENT.exec(code);
  if (html) return { offset: html.index, reason: `"${html[0]}" cannot appear here: write it with a space inside` };
  return undefined;
}

/** Whether SES's own source checks would refuse `code` (exported for tests). */
export function sesWouldRefuse(code: string): boolean {
  return HTML_COMMENT.test(code) || IMPORT_EXPRESSION.test(code) || DIRECT_EVAL.test(code);
}
