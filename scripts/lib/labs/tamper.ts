// Submissions that try to forge a pass instead of solving the lab. Each technique is TypeScript
// appended to a lab's starter (whose functions are wrong), so it applies to every lab, present and
// future. labs/tamper.test.ts grades each on both hosts (the CLI and the page's pipeline in Node)
// and scripts/browser/labs.suite.ts grades each in Chromium: none may pass, and none may pass a
// test the plain starter fails.
//
// Every technique here fooled at least one host before the CLI graded in a Compartment, or is
// recorded in docs (../shared/GRADING-NOTES.md), or is a known way out of an SES sandbox.

export interface TamperTechnique {
  id: string;
  /** What it tries, in one line. */
  description: string;
  /** Whether the forged file fails to load by design (a refused runtime import). */
  loadError?: boolean;
  /** TypeScript appended to the starter. */
  code: string;
}

/**
 * A function (as JavaScript source, so it also works from a string timer) that switches off every
 * assertion of a vitest `expect`: each method of the assertion object's prototype returns `this`,
 * chai's `assert` does nothing, and every matcher is re-registered to pass, negated or not.
 */
const DISARM_EXPECT = `function disarm(expect) {
  if (typeof expect !== 'function') return false;
  try {
    const assertion = expect(1);
    let proto = Object.getPrototypeOf(assertion);
    for (let depth = 0; proto && depth < 4; depth += 1, proto = Object.getPrototypeOf(proto)) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, key);
        if (!descriptor || typeof descriptor.value !== 'function' || key === 'constructor') continue;
        try { Object.defineProperty(proto, key, { value: key === 'assert' ? function () {} : function () { return this; }, writable: true, configurable: true }); } catch (e) {}
      }
    }
    const matchers = {};
    for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(assertion))) {
      if (/^to./.test(key)) matchers[key] = function () { return { pass: !this.isNot, message: function () { return ''; } }; };
    }
    try { expect.extend(matchers); } catch (e) {}
    return true;
  } catch (e) {
    return false;
  }
}`;

/** Wraps every export the module has so far (used by techniques that act while a test runs). */
const WRAP_EXPORTS = `declare const exports: Record<string, unknown>;
function wrapExports(before: () => void): void {
  for (const name of Object.keys(exports)) {
    const original = exports[name];
    if (typeof original !== 'function') continue;
    exports[name] = function (this: unknown, ...args: unknown[]) { before(); return (original as (...a: unknown[]) => unknown).apply(this, args); };
  }
}`;

const block = (body: string) => `\n\n// ---- tamper ----\n{\n${body}\n}\n`;

export const TAMPER_TECHNIQUES: readonly TamperTechnique[] = [
  {
    id: 'expect-prototype',
    description: "patch the assertion prototype reached through vitest's global expect symbol",
    code: block(`const disarm = ${DISARM_EXPECT};\ntry { disarm((globalThis as any)[Symbol.for('expect-global')]); } catch { /* not reachable */ }`),
  },
  {
    id: 'expect-extend',
    description: 'expect.extend replacing every matcher with one that always passes',
    code: block(`try {
  const expect: any = (globalThis as any)[Symbol.for('expect-global')];
  const matchers: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(expect(1)))) {
    if (/^to./.test(key)) matchers[key] = function (this: { isNot: boolean }) { return { pass: !this.isNot, message: () => '' }; };
  }
  expect.extend(matchers);
} catch { /* not reachable */ }`),
  },
  {
    id: 'assert-noop',
    description: "make chai's Assertion.prototype.assert (every matcher's last step) do nothing",
    code: block(`try {
  const expect: any = (globalThis as any)[Symbol.for('expect-global')];
  let proto = Object.getPrototypeOf(expect(1));
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'assert')) proto = Object.getPrototypeOf(proto);
  proto.assert = function () {};
  Object.getPrototypeOf(expect(1)).toMatch = function (this: unknown) { return this; };
} catch { /* not reachable */ }`),
  },
  {
    id: 'import-vitest',
    description: "a runtime import from 'vitest' that disarms its expect",
    loadError: true,
    code: `\n\n// ---- tamper ----\nimport { expect as tamperExpect } from 'vitest';\n{\n  const disarm = ${DISARM_EXPECT};\n  disarm(tamperExpect);\n}\n`,
  },
  {
    id: 'process-ipc',
    description: "rewrite the process channel that carries results to the reporter ('fail' -> 'pass')",
    code: block(`try {
  const proc: any = (globalThis as any).process;
  const key = Object.getOwnPropertySymbols(proc).find((symbol) => String(symbol) === 'Symbol(kChannelHandle)');
  const handle = key && proc[key];
  const write = handle.writeBuffer;
  handle.writeBuffer = function (this: unknown, req: unknown, buffer: any, h: unknown) {
    const text = buffer.toString('latin1').split('"\\x04fail').join('"\\x04pass');
    return write.call(this, req, proc.getBuiltinModule('buffer').Buffer.from(text, 'latin1'), h);
  };
  proc.send = () => true;
} catch { /* no process */ }`),
  },
  {
    id: 'worker-state',
    description: "mark the running test passed through vitest's worker state once it finishes",
    code: block(`${WRAP_EXPORTS}
const state: any = (globalThis as any).__vitest_worker__;
wrapExports(() => {
  const task = state?.current;
  if (!task || task.type !== 'test') return;
  (task.onFinished ??= []).push(() => { task.result.state = 'pass'; task.result.errors = undefined; });
});`),
  },
  {
    id: 'object-is',
    description: 'replace Object.is, which toBe relies on (GRADING-NOTES)',
    code: block(`try { (Object as any).is = () => true; } catch { /* frozen */ }`),
  },
  {
    id: 'prototype-pollution',
    description: 'give every object an asymmetricMatch that accepts anything, through Object.prototype',
    code: block(`try { Object.defineProperty(Object.prototype, 'asymmetricMatch', { value: function () { return true; }, writable: true, configurable: true }); } catch { /* frozen */ }`),
  },
  {
    id: 'chai-config',
    description: "switch chai off through its global symbol (GRADING-NOTES)",
    code: block(`try { const chai: any = (globalThis as any)[Symbol.for('chai')]; chai.config = {}; chai.Assertion.prototype.assert = function () {}; } catch { /* absent or frozen */ }
try { const state: any = (globalThis as any)[Symbol.for('$$jest-matchers-object')]; state.customEqualityTesters.push(() => true); } catch { /* absent */ }`),
  },
  {
    id: 'post-message',
    description: "post fake results on the worker's channel (GRADING-NOTES)",
    code: block(`const fake = (name: string) => ({ type: 'test-end', result: { name, status: 'pass', durationMs: 0 } });
for (const target of [(globalThis as any).postMessage, (globalThis as any).self?.postMessage]) {
  try { target(fake('x')); } catch { /* no channel */ }
}`),
  },
  {
    id: 'asymmetric-match',
    description: 'return values that claim to equal anything (asymmetricMatch), from every export',
    code: block(`${WRAP_EXPORTS}
const matchAll: any = new Proxy({ asymmetricMatch: () => true, $$typeof: Symbol.for('jest.asymmetricMatcher') }, {
  get: (target: any, key) => (key in target ? target[key] : typeof key === 'symbol' || key === 'then' ? undefined : matchAll),
});
for (const name of Object.keys(exports)) if (typeof exports[name] === 'function') exports[name] = () => matchAll;`),
  },
  {
    id: 'timer-string',
    description: "hand setTimeout a string of code, which a browser evaluates in the worker's own global scope",
    code: block(`try {
  (setTimeout as unknown as (code: string, ms: number) => void)('(' + ${JSON.stringify(DISARM_EXPECT)} + ")(globalThis[Symbol.for('expect-global')]); try { postMessage({ type: 'test-end' }); } catch (e) {}", 0);
} catch { /* functions only */ }`),
  },
  {
    id: 'timer-this',
    description: "read the host global as `this` of a timer callback (browsers pass the global object)",
    code: block(`const disarm = ${DISARM_EXPECT};
try { setTimeout(function (this: any) { try { disarm(this?.[Symbol.for('expect-global')]); } catch { /* nothing */ } }, 0); } catch { /* no timers */ }
try { (setTimeout(() => undefined, 0) as any)?._idleNext?._onTimeout?.call?.(null); } catch { /* opaque handle */ }`),
  },
  {
    id: 'function-constructor',
    description: "evaluate code through the Function constructors to reach the host's globalThis",
    code: block(`const disarm = ${DISARM_EXPECT};
const constructors: any[] = [(() => undefined).constructor, Object.getPrototypeOf(async () => undefined).constructor, Object.getPrototypeOf(function* () {}).constructor];
for (const make of constructors) {
  try { const host = make('return globalThis')(); disarm(host?.[Symbol.for('expect-global')]); } catch { /* tamed */ }
}
try { disarm((0, eval)('globalThis')[Symbol.for('expect-global')]); } catch { /* the compartment's eval */ }`),
  },
  {
    id: 'prepare-stack-trace',
    description: "V8's Error.prepareStackTrace: host call sites' this and functions",
    code: block(`const disarm = ${DISARM_EXPECT};
try {
  (Error as any).prepareStackTrace = (_error: unknown, frames: any[]) => {
    for (const frame of frames) {
      try { const self = frame.getThis?.(); if (self && disarm(self[Symbol.for('expect-global')])) break; } catch { /* nothing */ }
    }
    return '';
  };
  void new Error('probe').stack;
} catch { /* tamed */ }`),
  },
];

/** A forged submission: the lab's starter with one technique appended. */
export function tamperedSource(starter: string, technique: TamperTechnique): string {
  return `${starter.trimEnd()}\n${technique.code}`;
}

/**
 * Not a forgery: every export throws something hard to report (a null-prototype object, a symbol,
 * getters that throw, a cyclic object, a huge string, undefined, a TypeError from the learner's own
 * line), one after the other. Both hosts must fail every test with the same readable message.
 */
export function oddThrowsSource(starter: string): string {
  return `${starter.trimEnd()}

// ---- odd throws ----
declare const exports: Record<string, unknown>;
{
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const odd: (() => unknown)[] = [
    () => Object.create(null),
    () => Symbol('odd'),
    () => ({ get message(): string { throw new Error('getter'); }, get showDiff(): boolean { throw 1; } }),
    () => cyclic,
    () => 'x'.repeat(1_000_000),
    () => undefined,
    () => { const missing = undefined as unknown as { field: number }; return missing.field; },
  ];
  let calls = 0;
  for (const name of Object.keys(exports)) {
    exports[name] = () => { const make = odd[calls++ % odd.length]!; throw make(); };
  }
}
`;
}
