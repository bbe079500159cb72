// Property tests. Each prints its seed on failure; replay with FC_SEED=<seed> npm run test:unit -- runtime/api.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Quantity, type QuantityFormat } from './resource/quantity.ts';
import { parseSelector } from './labels/selector.ts';
import { validateObject } from './validation/validate.ts';
import { defaultObject } from './defaults/defaults.ts';
import { RESOURCES } from './registry.ts';

const envSeed = Number(
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FC_SEED,
);
const seed = Number.isFinite(envSeed) ? envSeed : 20260101;
const params = { seed, numRuns: 400, verbose: 1 as const };

describe(`runtime/api properties (seed ${seed})`, () => {
  it('canonical quantity text is a fixed point of parse then print, and keeps the value', () => {
    const format = fc.constantFrom<QuantityFormat>('DecimalSI', 'BinarySI', 'DecimalExponent');
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
        fc.integer({ min: -9, max: 9 }),
        format,
        (m, e, f) => {
          const q = Quantity.fromDecimal(m, e, f);
          // printing keeps the value; a BinarySI value printed without a suffix parses back as
          // DecimalSI ("10000" -> "10k"), so the fixed point is reached after one round trip
          const back = Quantity.mustParse(q.toString());
          expect(back.cmp(q)).toBe(0);
          const text = back.toString();
          expect(Quantity.mustParse(text).toString()).toBe(text);
          expect(Quantity.mustParse(text).cmp(q)).toBe(0);
        },
      ),
      params,
    );
  });

  it('parsing arbitrary text never throws', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'0123456789.+-eEinumkKMGTP '.split('')),
          maxLength: 24,
        }),
        (s) => {
          const r = Quantity.parse(s);
          if (r.ok) expect(Quantity.mustParse(r.quantity.canonical()).cmp(r.quantity)).toBe(0);
        },
      ),
      params,
    );
  });

  it('selector String() parses back to the same selector', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
    const term = fc.oneof(
      fc.tuple(word, fc.constantFrom('=', '==', '!='), word).map(([k, op, v]) => `${k}${op}${v}`),
      fc
        .tuple(word, fc.constantFrom('in', 'notin'), fc.array(word, { minLength: 1, maxLength: 3 }))
        .map(([k, op, vs]) => `${k} ${op} (${vs.join(',')})`),
      word,
      word.map((k) => `!${k}`),
      // negative numbers are not valid label values, so "a>-1" is rejected upstream too
      fc
        .tuple(word, fc.constantFrom('>', '<'), fc.integer({ min: 0, max: 99 }))
        .map(([k, op, n]) => `${k}${op}${n}`),
    );
    fc.assert(
      fc.property(fc.array(term, { maxLength: 5 }), (terms) => {
        const r = parseSelector(terms.join(','));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const again = parseSelector(r.selector.toString());
        expect(again.ok && again.selector.toString()).toBe(r.selector.toString());
      }),
      params,
    );
  });

  it('defaulting and validation never throw on arbitrary JSON, deep nesting or huge strings', () => {
    const kinds = [...new Set(RESOURCES.map((r) => r.kind))];
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 2 }),
        fc.string({ maxLength: 3000 }),
        fc.array(tie('tree'), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom(
            'metadata',
            'spec',
            'containers',
            'name',
            'image',
            'ports',
            'resources',
            'limits',
            'requests',
            'selector',
            'template',
            'labels',
            'rules',
            'subjects',
            'roleRef',
            'strategy',
            'rollingUpdate',
            'matchLabels',
            'matchExpressions',
          ),
          tie('tree'),
          { maxKeys: 5 },
        ),
      ),
    }));
    fc.assert(
      fc.property(fc.constantFrom(...kinds), tree, tree, (kind, metadata, spec) => {
        const obj = {
          kind,
          metadata,
          spec,
          rules: spec,
          subjects: spec,
          roleRef: spec,
          data: spec,
        };
        const defaulted = defaultObject(obj as never);
        const errs = validateObject(defaulted);
        expect(Array.isArray(errs)).toBe(true);
      }),
      params,
    );
  });
});
