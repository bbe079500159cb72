// Runs learner code in an SES Compartment after lockdown(): the shared built-ins are frozen (so
// replacing Object.is or Array.prototype methods throws instead of forging a pass), and the code
// sees only the globals listed here: no postMessage, self, fetch, storage or the worker's globals.
import 'ses';
import { bindableGlobals } from './bindable-globals.ts';

let lockedDown = false;

/**
 * Freezes the intrinsics once per worker. Call it after vitest has been imported (it patches a few
 * prototypes while loading) and before any learner code runs.
 */
export function lockdownOnce(): void {
  if (lockedDown) return;
  lockdown({
    errorTaming: 'unsafe', // keep stacks: vitest reads them to locate failures
    stackFiltering: 'verbose',
    // 'min': the fewest frozen prototype properties turned into accessors. 'moderate' and 'severe'
    // also turn Array.prototype[Symbol.iterator] and Promise.prototype.constructor into accessors,
    // which switches off V8's fast paths for every destructuring, spread, for-of and await in the
    // worker (vitest, the suite and the learner's code): a lab suite ran several times slower.
    // Everything stays frozen either way; vitest and chai need no more than 'min' allows.
    overrideTaming: 'min',
    consoleTaming: 'unsafe',
    localeTaming: 'unsafe',
    evalTaming: 'unsafe-eval',
    reporting: 'none', // no console group about removed proposal intrinsics on every worker
  });
  lockedDown = true;
  makeFakeableGlobalsWritable();
}

/**
 * vi.useFakeTimers() installs `class ClockDate extends Date` and assigns ClockDate.now; with Date
 * frozen that assignment hits the inherited read-only property and throws. Give the worker a Date
 * subclass whose statics are own writable properties (and writable copies of Intl and Temporal),
 * so fake timers work; the frozen originals stay untouched for everyone else.
 */
function makeFakeableGlobalsWritable(): void {
  const NativeDate = Date;
  class WorkerDate extends NativeDate {}
  for (const name of ['now', 'parse', 'UTC'] as const) {
    Object.defineProperty(WorkerDate, name, { value: NativeDate[name], writable: true, configurable: true });
  }
  Object.defineProperty(globalThis, 'Date', { value: WorkerDate, writable: true, configurable: true });
  for (const name of ['Intl', 'Temporal']) {
    const original = (globalThis as Record<string, unknown>)[name];
    if (original && typeof original === 'object') {
      const descriptors = Object.getOwnPropertyDescriptors(original) as Record<PropertyKey, PropertyDescriptor>;
      for (const key of Reflect.ownKeys(descriptors)) {
        const descriptor = descriptors[key as string]!;
        descriptor.configurable = true;
        if ('value' in descriptor) descriptor.writable = true;
      }
      const copy = Object.create(Object.getPrototypeOf(original), descriptors) as object;
      Object.defineProperty(globalThis, name, { value: copy, writable: true, configurable: true });
    }
  }
}

/**
 * Globals the learner sees. Time-related ones are getters onto the worker's current values, so a
 * suite's vi.useFakeTimers() reaches the learner's code too; each is a bound function so the code
 * cannot reach the worker's globalThis through `this`.
 */
function learnerGlobals(log: (line: string) => void): Record<string, unknown> {
  const worker = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
  const forward = (name: string) => (...args: unknown[]) => worker[name]!(...args);
  const print = (...args: unknown[]) => log(args.map((value) => (typeof value === 'string' ? value : safeStringify(value))).join(' '));
  return {
    console: harden({ log: print, info: print, warn: print, error: print, debug: print }),
    setTimeout: forward('setTimeout'),
    clearTimeout: forward('clearTimeout'),
    setInterval: forward('setInterval'),
    clearInterval: forward('clearInterval'),
    queueMicrotask: forward('queueMicrotask'),
    structuredClone: forward('structuredClone'),
  };
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A runtime import in learner code: the worker cannot resolve modules, so it is refused clearly. */
function refuseRequire(specifier: string): never {
  throw new Error(
    `Your code imports "${specifier}" at run time. Lab code must be self-contained: use "import type" for types from the runtime and write helpers in this file.`,
  );
}

/**
 * Evaluates the transpiled learner module in a fresh Compartment and returns its exports.
 * Throws what the learner's top-level code throws (reported as a load error).
 */
export function evaluateLearnerModule(commonJsCode: string, log: (line: string) => void): Record<string, unknown> {
  const compartment = new Compartment({ globals: learnerGlobals(log), __options__: true });
  // Date is read through a getter so fake timers installed later in the test are seen.
  Object.defineProperty(compartment.globalThis, 'Date', { get: () => (globalThis as { Date: DateConstructor }).Date });
  const [globalNames, globalValues] = bindableGlobals(compartment.globalThis);
  const moduleFunction = compartment.evaluate(`(function (exports, require, module, ${globalNames.join(', ')}) {\n${commonJsCode}\n})`) as (
    exports: Record<string, unknown>,
    require: (specifier: string) => never,
    module: { exports: Record<string, unknown> },
    ...globals: unknown[]
  ) => void;
  const exports: Record<string, unknown> = {};
  moduleFunction(exports, refuseRequire, { exports }, ...globalValues);
  return exports;
}
