// Property tests. Each prints its seed on failure; replay with FC_SEED=<seed> npm run test:unit -- runtime/cli/kubectl.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';
import { parseJSONPath, executeJSONPath } from './printers/jsonpath.ts';
import { alignTabs, GET_TABWRITER } from './printers/tabwriter.ts';
import { toYAML } from './printers/yaml-emit.ts';
import { shellSplit } from './shell.ts';
import { parseAllDocuments } from 'yaml';

const envSeed = Number(
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FC_SEED,
);
const seed = Number.isFinite(envSeed) ? envSeed : 20260101;
const params = { seed, numRuns: 300, verbose: 1 as const };

const cell = fc.string({ minLength: 0, maxLength: 12 }).map((s) => s.replace(/[\t\n]/g, 'x'));

describe(`kubectl properties (seed ${seed})`, () => {
  it('tables: every column starts at the same offset on every line, 3 spaces past its widest cell', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }).chain((n) =>
          fc.array(fc.array(cell, { minLength: n, maxLength: n }), {
            minLength: 1,
            maxLength: 6,
          }),
        ),
        (rows) => {
          const out = alignTabs(rows.map((r) => r.join('\t')).join('\n') + '\n', GET_TABWRITER)
            .split('\n')
            .slice(0, -1);
          let offset = 0;
          for (let col = 0; col < rows[0]!.length - 1; col++) {
            const width = Math.max(6, ...rows.map((r) => [...r[col]!].length + 3));
            for (let i = 0; i < rows.length; i++)
              expect([...out[i]!].slice(offset, offset + width).join('')).toBe(
                rows[i]![col]!.padEnd(width),
              );
            offset += width;
          }
        },
      ),
      params,
    );
  });

  it('shell words survive quoting: single-quoted words split back to themselves', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 10 }).filter((s) => !s.includes("'")),
          { maxLength: 6 },
        ),
        (words) => {
          const line = words.map((w) => `'${w}'`).join(' ');
          expect(shellSplit(line)).toEqual({ ok: true, words });
        },
      ),
      params,
    );
  });

  it('the argument parser never throws on arbitrary argv', () => {
    const word = fc.oneof(
      fc.constantFrom(
        'get',
        'pods',
        '-n',
        '-o',
        '--',
        '-Aw',
        '--output=yaml',
        'rollout',
        'undo',
        '-',
        '--x=',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (argv) => {
        const r = parseArgs(argv);
        if (!r.ok) expect(r.error.startsWith('error: ')).toBe(true);
      }),
      params,
    );
  });

  it('-o yaml reads back to the same JSON value', () => {
    // Number-like text ("." "1_0" "+.") is where YAML 1.1 readers disagree (go-yaml prints "." plain,
    // the yaml package's 1.1 schema reads it as a float), so the oracle skips it.
    const text = (minLength: number, maxLength: number) =>
      fc.string({ minLength, maxLength }).filter((s) => !/^[-+.0-9_:eE]+$/.test(s) && s !== '<<');
    const key = text(1, 8);
    const leaf = fc.oneof(text(0, 90), fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 4 }), (obj) => {
        const docs = parseAllDocuments(toYAML(obj), { version: '1.1' });
        const doc = Array.isArray(docs) ? docs[0] : docs;
        expect(doc?.toJS() ?? {}).toEqual(obj);
      }),
      params,
    );
  });

  it('JSONPath never throws anything but its own errors', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (template) => {
        try {
          executeJSONPath(parseJSONPath(template), { items: [{ a: 1 }] });
        } catch (e) {
          expect(
            (e as Error).name === 'Error' || (e as Error).constructor.name === 'JSONPathError',
          ).toBe(true);
        }
      }),
      params,
    );
  });
});
