// LimitRange defaulting.
// mirrors pkg/apis/core/v1/defaults.go (SetDefaults_LimitRangeItem) and the quantities' decoding
// (resource.Quantity UnmarshalJSON, then MarshalJSON's String() when stored).
import { Quantity } from '../resource/quantity.ts';
import type { LimitRange, LimitRangeItem } from '../types/quota.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const LISTS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** Quantities are stored as String() prints them: "1.5" becomes "1500m", "100m" stays. */
function canonicalize(list: unknown): void {
  if (!isObject(list)) return;
  for (const [name, value] of Object.entries(list)) {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== 'string') continue;
    const parsed = Quantity.parse(text);
    if (parsed.ok) list[name] = parsed.quantity.toString();
  }
}

/** Copies into `to` every entry of `from` that `to` lacks; `to` is made only when something is copied. */
function fill(item: LimitRangeItem, to: 'default' | 'defaultRequest', from: 'max' | 'default' | 'min'): void {
  const source: unknown = item[from];
  if (!isObject(source)) return;
  for (const [name, value] of Object.entries(source)) {
    const target: unknown = item[to];
    if (target !== undefined && !isObject(target)) return;
    if (target !== undefined && Object.hasOwn(target, name)) continue;
    (item[to] ??= {})[name] = value as string;
  }
}

/**
 * SetDefaults_LimitRangeItem, for Container items: a default limit falls back to max, a default
 * request to the default limit, then to min. (Upstream makes both maps non-nil; empty ones are
 * omitted from the JSON, so none is made here.)
 */
export function defaultLimitRange(lr: LimitRange): void {
  if (!isObject(lr) || !isObject(lr.spec) || !Array.isArray(lr.spec.limits)) return;
  for (const item of lr.spec.limits as unknown[]) {
    if (!isObject(item)) continue;
    const it = item as unknown as LimitRangeItem;
    for (const key of LISTS) canonicalize(it[key]);
    if (it.type !== 'Container') continue;
    fill(it, 'default', 'max');
    fill(it, 'defaultRequest', 'default');
    fill(it, 'defaultRequest', 'min');
  }
}
