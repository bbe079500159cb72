// Label selectors: the grammar, printing and matching of k8s.io/apimachinery/pkg/labels.
// mirrors staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Lexer, Parser, Requirement,
// internalSelector) and pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector).
import { Path } from '../field/path.ts';
import { aggregateMessage, invalid, notSupported, type FieldError } from '../field/errors.ts';
import { isQualifiedName, isValidLabelValue } from '../validation/names.ts';
import type { LabelSelector, LabelSelectorRequirement } from '../types/meta.ts';

/** selection.Operator values. */
export type Operator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

const BINARY_OPERATORS: readonly Operator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_OPERATORS: readonly Operator[] = [...BINARY_OPERATORS, 'exists', '!'];

export type Labels = Readonly<Record<string, string>>;
export type SelectorResult = { ok: true; selector: Selector } | { ok: false; error: string };

const hasOwn = (labels: Labels, key: string): boolean =>
  Object.prototype.hasOwnProperty.call(labels, key);
const INT64 = /^[+-]?[0-9]+$/;
const parseInt64 = (s: string): bigint | undefined => {
  if (!INT64.test(s)) return undefined;
  const v = BigInt(s);
  return v >= -(1n << 63n) && v < 1n << 63n ? v : undefined;
};

export class Requirement {
  constructor(
    readonly key: string,
    readonly operator: Operator,
    readonly values: readonly string[],
  ) {}

  /** Requirement.Matches. */
  matches(labels: Labels): boolean {
    const present = hasOwn(labels, this.key);
    const value = present ? labels[this.key]! : '';
    switch (this.operator) {
      case 'in':
      case '=':
      case '==':
        return present && this.values.includes(value);
      case 'notin':
      case '!=':
        return !present || !this.values.includes(value);
      case 'exists':
        return present;
      case '!':
        return !present;
      case 'gt':
      case 'lt': {
        if (!present || this.values.length !== 1) return false;
        const have = parseInt64(value);
        const want = parseInt64(this.values[0]!);
        if (have === undefined || want === undefined) return false;
        return this.operator === 'gt' ? have > want : have < want;
      }
    }
  }

  /** Requirement.String: "x in (a,b)", "!x", "x!=y"; values sorted on output. */
  toString(): string {
    const prefix = this.operator === '!' ? '!' : '';
    const symbol: Record<Operator, string> = {
      '=': '=',
      '==': '==',
      '!=': '!=',
      in: ' in ',
      notin: ' notin ',
      gt: '>',
      lt: '<',
      exists: '',
      '!': '',
    };
    if (this.operator === 'exists' || this.operator === '!') return `${prefix}${this.key}`;
    const values =
      this.values.length === 1 ? this.values[0]! : [...this.values].sort(compareStrings).join(',');
    const set = this.operator === 'in' || this.operator === 'notin';
    return `${this.key}${symbol[this.operator]}${set ? `(${values})` : values}`;
  }
}

/** Byte-wise string order, like Go's sort.Strings. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A conjunction of requirements, kept sorted by key (internalSelector), or the Nothing selector. */
export class Selector {
  private constructor(
    readonly requirements: readonly Requirement[],
    private readonly nothing: boolean,
  ) {}

  /** Everything(): matches all label sets. */
  static everything(): Selector {
    return new Selector([], false);
  }

  /** Nothing(): matches no label set (a nil LabelSelector). */
  static nothing(): Selector {
    return new Selector([], true);
  }

  static of(requirements: readonly Requirement[]): Selector {
    return new Selector(
      [...requirements].sort((a, b) => compareStrings(a.key, b.key)),
      false,
    );
  }

  add(...requirements: Requirement[]): Selector {
    return this.nothing ? this : Selector.of([...this.requirements, ...requirements]);
  }

  matches(labels: Labels | undefined): boolean {
    if (this.nothing) return false;
    const ls = labels ?? {};
    return this.requirements.every((r) => r.matches(ls));
  }

  /** Empty: does not restrict the selection (Everything). Nothing is not empty. */
  empty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }

  isNothing(): boolean {
    return this.nothing;
  }

  /** RequiresExactMatch: the single value a key must have, if the selector pins one. */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (!r || !['=', '==', 'in'].includes(r.operator) || r.values.length !== 1) return undefined;
    return r.values[0];
  }

  toString(): string {
    return this.requirements.map((r) => r.toString()).join(',');
  }
}

/**
 * NewRequirement: validates key, operator and values; errors are an aggregated field.ErrorList
 * whose paths hang off `path` (upstream passes a nil path from the parser, so fields read
 * "key", "values[0]"...).
 */
export function newRequirement(
  key: string,
  operator: string,
  values: readonly string[],
  path?: Path,
): { ok: true; requirement: Requirement } | { ok: false; error: string } {
  const errs: FieldError[] = [];
  const keyErrs = isQualifiedName(key);
  const child = (name: string): Path => (path ? path.child(name) : Path.of(name));
  if (keyErrs.length) errs.push(invalid(child('key'), key, keyErrs.join('; ')));
  const valuePath = child('values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        errs.push(
          invalid(valuePath, values, "for 'in', 'notin' operators, values set can't be empty"),
        );
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        errs.push(
          invalid(valuePath, values, 'exact-match compatibility requires one single value'),
        );
      break;
    case 'exists':
    case '!':
      if (values.length !== 0)
        errs.push(
          invalid(valuePath, values, 'values set must be empty for exists and does not exist'),
        );
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        errs.push(
          invalid(valuePath, values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(
            invalid(valuePath.at(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"),
          );
        }
      });
      break;
    default:
      errs.push(notSupported(child('operator'), operator, VALID_OPERATORS));
  }
  values.forEach((v, i) => {
    const valueErrs = isValidLabelValue(v);
    if (valueErrs.length) errs.push(invalid(valuePath.at(i).key(key), v, valueErrs.join('; ')));
  });
  if (errs.length) return { ok: false, error: aggregateMessage(errs) };
  return { ok: true, requirement: new Requirement(key, operator as Operator, [...values]) };
}

// ---------------------------------------------------------------- lexer

export type Token =
  | 'Error'
  | 'EndOfString'
  | 'ClosedPar'
  | 'Comma'
  | 'DoesNotExist'
  | 'DoubleEquals'
  | 'Equals'
  | 'GreaterThan'
  | 'Identifier'
  | 'In'
  | 'LessThan'
  | 'NotEquals'
  | 'NotIn'
  | 'OpenPar';

const STRING_TO_TOKEN: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', 'ClosedPar'],
  [',', 'Comma'],
  ['!', 'DoesNotExist'],
  ['==', 'DoubleEquals'],
  ['=', 'Equals'],
  ['>', 'GreaterThan'],
  ['in', 'In'],
  ['<', 'LessThan'],
  ['!=', 'NotEquals'],
  ['notin', 'NotIn'],
  ['(', 'OpenPar'],
]);

const isWhitespace = (ch: string): boolean =>
  ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch.length === 1;

export interface ScannedItem {
  token: Token;
  literal: string;
}

/** Lexer.Lex over the whole input, ending with EndOfString. Works on UTF-16 units; specials are ASCII. */
export function lex(input: string): ScannedItem[] {
  const items: ScannedItem[] = [];
  let pos = 0;
  for (;;) {
    while (pos < input.length && isWhitespace(input[pos]!)) pos++;
    if (pos >= input.length) {
      items.push({ token: 'EndOfString', literal: '' });
      return items;
    }
    if (isSpecialSymbol(input[pos]!)) {
      let buffer = '';
      let last: ScannedItem | undefined;
      while (pos < input.length && isSpecialSymbol(input[pos]!)) {
        buffer += input[pos];
        const tok = STRING_TO_TOKEN.get(buffer);
        if (tok) last = { token: tok, literal: buffer };
        else if (last) break;
        pos++;
      }
      items.push(last ?? { token: 'Error', literal: `error expected: keyword found '${buffer}'` });
    } else {
      const start = pos;
      while (pos < input.length && !isSpecialSymbol(input[pos]!) && !isWhitespace(input[pos]!))
        pos++;
      const word = input.slice(start, pos);
      items.push({ token: STRING_TO_TOKEN.get(word) ?? 'Identifier', literal: word });
    }
  }
}

// ---------------------------------------------------------------- parser

class ParseError extends Error {}

type Context = 'KeyAndOperator' | 'Values';

class Parser {
  private position = 0;
  constructor(private readonly items: ScannedItem[]) {}

  lookahead(context: Context): ScannedItem {
    return this.view(this.items[Math.min(this.position, this.items.length - 1)]!, context);
  }

  consume(context: Context): ScannedItem {
    const item = this.items[Math.min(this.position, this.items.length - 1)]!;
    this.position++;
    return this.view(item, context);
  }

  private view(item: ScannedItem, context: Context): ScannedItem {
    if (context === 'Values' && (item.token === 'In' || item.token === 'NotIn'))
      return { token: 'Identifier', literal: item.literal };
    return item;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead('Values');
      if (token === 'EndOfString') return requirements;
      if (token !== 'Identifier' && token !== 'DoesNotExist') {
        throw new ParseError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.parseRequirementWrapped());
      const next = this.consume('Values');
      if (next.token === 'EndOfString') return requirements;
      if (next.token !== 'Comma')
        throw new ParseError(`found '${next.literal}', expected: ',' or 'end of string'`);
      const after = this.lookahead('Values');
      if (after.token !== 'Identifier' && after.token !== 'DoesNotExist') {
        throw new ParseError(`found '${after.literal}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirementWrapped(): Requirement {
    try {
      return this.parseRequirement();
    } catch (e) {
      if (e instanceof ParseError)
        throw new ParseError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return this.build(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return this.build(key, op, [...values].sort(compareStrings));
  }

  private build(key: string, op: Operator, values: string[]): Requirement {
    const r = newRequirement(key, op, values);
    if (!r.ok) throw new ParseError(r.error);
    return r.requirement;
  }

  private parseKeyAndInferOperator(): { key: string; operator: Operator | undefined } {
    let operator: Operator | undefined;
    let item = this.consume('Values');
    if (item.token === 'DoesNotExist') {
      operator = '!';
      item = this.consume('Values');
    }
    if (item.token !== 'Identifier')
      throw new ParseError(`found '${item.literal}', expected: identifier`);
    const keyErrs = isQualifiedName(item.literal);
    if (keyErrs.length)
      throw new ParseError(
        aggregateMessage([invalid(undefined, item.literal, keyErrs.join('; '))]),
      );
    const t = this.lookahead('Values').token;
    if ((t === 'EndOfString' || t === 'Comma') && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  }

  private parseOperator(): Operator {
    const { token, literal } = this.consume('KeyAndOperator');
    const ops: Partial<Record<Token, Operator>> = {
      In: 'in',
      Equals: '=',
      DoubleEquals: '==',
      GreaterThan: 'gt',
      LessThan: 'lt',
      NotIn: 'notin',
      NotEquals: '!=',
    };
    const op = ops[token];
    if (!op) throw new ParseError(`found '${literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
    return op;
  }

  private parseValues(): Set<string> {
    const open = this.consume('Values');
    if (open.token !== 'OpenPar') throw new ParseError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead('Values');
    if (token === 'Identifier' || token === 'Comma') {
      const s = this.parseIdentifiersList();
      if (this.consume('Values').token !== 'ClosedPar')
        throw new ParseError(`found '${literal}', expected: ')'`);
      return s;
    }
    if (token === 'ClosedPar') {
      this.consume('Values');
      return new Set(['']);
    }
    throw new ParseError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume('Values');
      if (token === 'Identifier') {
        s.add(literal);
        const next = this.lookahead('Values');
        if (next.token === 'Comma') continue;
        if (next.token === 'ClosedPar') return s;
        throw new ParseError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token === 'Comma') {
        if (s.size === 0) s.add('');
        const next = this.lookahead('Values').token;
        if (next === 'ClosedPar') {
          s.add('');
          return s;
        }
        if (next === 'Comma') s.add('');
        continue;
      }
      throw new ParseError(`found '${literal}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const t = this.lookahead('Values').token;
    if (t === 'EndOfString' || t === 'Comma') return new Set(['']);
    const { token, literal } = this.consume('Values');
    if (token === 'Identifier') return new Set([literal]);
    throw new ParseError(`found '${literal}', expected: identifier`);
  }
}

/** labels.Parse: the selector, or the exact upstream error text. */
export function parseSelector(input: string): SelectorResult {
  try {
    return { ok: true, selector: Selector.of(new Parser(lex(input)).parse()) };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message };
    throw e;
  }
}

const TO_LABEL_SELECTOR_OPERATORS: Partial<Record<Operator, LabelSelectorRequirement['operator']>> = {
  in: 'In',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

/**
 * metav1.ParseToLabelSelector: a selector string as a LabelSelector (= and == become matchLabels,
 * set operators matchExpressions); what `kubectl create poddisruptionbudget --selector` sends.
 */
export function parseToLabelSelector(input: string): { ok: true; selector: LabelSelector } | { ok: false; error: string } {
  const parsed = parseSelector(input);
  if (!parsed.ok) return parsed;
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirement[] = [];
  for (const r of parsed.selector.requirements) {
    if (r.operator === '=' || r.operator === '==') {
      if (r.values.length !== 1) return { ok: false, error: 'equals operator must have exactly one value' };
      matchLabels[r.key] = r.values[0]!;
      continue;
    }
    if (r.operator === 'gt' || r.operator === 'lt') return { ok: false, error: `"${r.operator}" isn't supported in label selectors` };
    const operator = TO_LABEL_SELECTOR_OPERATORS[r.operator];
    if (!operator) return { ok: false, error: `"${r.operator}" is not a valid label selector operator` };
    const req: LabelSelectorRequirement = { key: r.key, operator };
    if (r.values.length > 0) req.values = [...r.values].sort(compareStrings);
    matchExpressions.push(req);
  }
  const selector: LabelSelector = {};
  if (Object.keys(matchLabels).length > 0) selector.matchLabels = matchLabels;
  if (matchExpressions.length > 0) selector.matchExpressions = matchExpressions;
  return { ok: true, selector };
}

/** SelectorFromSet: key=value for every entry (no validation), Everything for an empty set. */
export function selectorFromSet(set: Labels | undefined): Selector {
  const entries = Object.entries(set ?? {});
  return Selector.of(entries.map(([k, v]) => new Requirement(k, '=', [v])));
}

/** Set.String(): "a=b,c=d", sorted by key. */
export function formatLabels(set: Labels | undefined): string {
  return Object.keys(set ?? {})
    .sort(compareStrings)
    .map((k) => `${k}=${set![k]}`)
    .join(',');
}

const LABEL_SELECTOR_OPERATORS: Record<string, Operator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * metav1.LabelSelectorAsSelector: nil selects nothing, an empty selector selects everything,
 * otherwise matchLabels and matchExpressions are ANDed.
 */
export function labelSelectorAsSelector(ls: LabelSelector | null | undefined): SelectorResult {
  if (ls === null || ls === undefined) return { ok: true, selector: Selector.nothing() };
  const matchLabels = ls.matchLabels ?? {};
  const expressions = ls.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + expressions.length === 0)
    return { ok: true, selector: Selector.everything() };
  const requirements: Requirement[] = [];
  for (const key of Object.keys(matchLabels).sort(compareStrings)) {
    const r = newRequirement(key, '=', [matchLabels[key]!]);
    if (!r.ok) return r;
    requirements.push(r.requirement);
  }
  for (const expr of expressions) {
    const op = LABEL_SELECTOR_OPERATORS[expr.operator];
    if (!op)
      return {
        ok: false,
        error: `${JSON.stringify(expr.operator)} is not a valid label selector operator`,
      };
    const r = newRequirement(expr.key, op, [...(expr.values ?? [])]);
    if (!r.ok) return r;
    requirements.push(r.requirement);
  }
  return { ok: true, selector: Selector.of(requirements) };
}

/** metav1.FormatLabelSelector: what kubectl prints in the SELECTOR column ("<none>" when empty). */
export function formatLabelSelector(ls: LabelSelector | null | undefined): string {
  const r = labelSelectorAsSelector(ls);
  if (!r.ok) return '<error>';
  const s = r.selector.toString();
  return s.length === 0 ? '<none>' : s;
}
