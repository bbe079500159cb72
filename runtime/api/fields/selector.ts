// Field selectors: "metadata.name=x,status.phase!=Running".
// mirrors staging/src/k8s.io/apimachinery/pkg/fields/selector.go (parsing, escaping, String) and
// the per-kind field sets the API server exposes (pkg/registry/*/strategy.go ...ToSelectableFields,
// pkg/apis/*/v1/conversion.go AddFieldLabelConversionFunc).
import { compareStrings } from '../labels/selector.ts';

export type Fields = Readonly<Record<string, string>>;

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '==' | '!=';
  readonly value: string;
}

export type FieldSelectorResult =
  { ok: true; selector: FieldSelector } | { ok: false; error: string };

/** EscapeValue: backslash, comma and equals are escaped with a backslash. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** UnescapeValue, with upstream's errors for a bad escape or an unescaped ',' or '='. */
export function unescapeValue(
  s: string,
): { ok: true; value: string } | { ok: false; error: string } {
  if (!/[\\,=]/.test(s)) return { ok: true, value: s };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      const next = s[i + 1];
      if (next === '\\' || next === ',' || next === '=') {
        out += next;
        i++;
        continue;
      }
      return {
        ok: false,
        error: `invalid field selector: invalid escape sequence: ${s.slice(i, i + 2)}`,
      };
    }
    if (c === ',' || c === '=')
      return { ok: false, error: `invalid field selector: unescaped character: ${c}` };
    out += c;
  }
  return { ok: true, value: out };
}

/** A conjunction of field requirements. */
export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  matches(fields: Fields): boolean {
    return this.requirements.every((r) => {
      const have = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field]! : '';
      return r.operator === '!=' ? have !== r.value : have === r.value;
    });
  }

  empty(): boolean {
    return this.requirements.length === 0;
  }

  /** RequiresExactMatch: the value a field must equal, e.g. spec.nodeName for a kubelet's watch. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator !== '!=')?.value;
  }

  /** String(): "f=v" / "f!=v" joined by ","; "==" prints as "=" (a hasTerm). */
  toString(): string {
    return this.requirements
      .map((r) => `${r.field}${r.operator === '!=' ? '!=' : '='}${escapeValue(r.value)}`)
      .join(',');
  }
}

/** splitTerms: splits on unescaped commas. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    if (escaped) escaped = false;
    else if (s[i] === '\\') escaped = true;
    else if (s[i] === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** splitTerm: the first position where an operator starts (with "!=" tried before "==" and "="). */
function splitTerm(term: string): FieldRequirement | undefined {
  for (let i = 0; i < term.length; i++) {
    const rest = term.slice(i);
    for (const op of TERM_OPERATORS) {
      if (rest.startsWith(op))
        return { field: term.slice(0, i), operator: op, value: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.ParseSelector. Terms are sorted as strings before parsing, like upstream. */
export function parseFieldSelector(selector: string): FieldSelectorResult {
  const parts = splitTerms(selector).sort(compareStrings);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term)
      return { ok: false, error: `invalid selector: '${selector}'; can't understand '${part}'` };
    const value = unescapeValue(term.value);
    if (!value.ok) return value;
    requirements.push({ ...term, value: value.value });
  }
  return { ok: true, selector: new FieldSelector(requirements) };
}

/** A field selector matching exactly the given set (fields.SelectorFromSet / OneTermEqualSelector). */
export function fieldSelectorFromSet(set: Fields): FieldSelector {
  return new FieldSelector(
    Object.keys(set)
      .sort(compareStrings)
      .map((field) => ({ field, operator: '=' as const, value: set[field]! })),
  );
}
