// Runs learner code in an SES Compartment after lockdown(), the same way on both grading hosts:
// the page's grading worker (site/workers/grader.worker.ts) and the grading CLI's vitest worker
// (scripts/lib/labs/sandbox-setup.ts, submission-module.ts). The shared built-ins are frozen (so
// replacing Object.is or a prototype method throws instead of forging a pass), and the code sees
// only the globals listed here: no postMessage, self, process, fetch, storage, vitest's expect or
// chai (kept on the host's globalThis, which the compartment does not see), and no module but the
// ones a lab declares. Every endowment takes functions only (a timer given a string of code throws
// a TypeError: the host would have evaluated it in its own global scope) and calls them with no
// `this` (a browser calls a timer callback with the global object as `this`).
import 'ses';
import { bindableGlobals } from './bindable-globals.ts';
import { describeThrown, truncateText } from './describe-thrown.ts';
import { LearnerSyntaxError, prepareLearnerSource, type PreparedSource, type SourcePosition } from './prepare-source.ts';

/**
 * State shared by every copy of this module in the realm. A host can load it more than once (the
 * CLI's vitest loads its runner apart from the suite's module graph), and lockdown, the worker's
 * Date and the learner source that stack frames map to are one per realm. It lives on the host's
 * globalThis, which learner code never sees.
 */
interface RealmState {
  lockedDown: boolean;
  workerDate?: DateConstructor;
  nativeDate: DateConstructor;
  current?: PreparedSource;
}
const STATE_KEY = Symbol.for('inside-the-control-plane/grading-sandbox');
const realm: RealmState = ((globalThis as Record<symbol, RealmState | undefined>)[STATE_KEY] ??= { lockedDown: false, nativeDate: Date });
const NativeDate = realm.nativeDate;

/**
 * Freezes the intrinsics once per worker. Call it after vitest has been imported (it patches a few
 * prototypes while loading) and before any learner code runs.
 */
export function lockdownOnce(): void {
  if (realm.lockedDown) return;
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
  realm.lockedDown = true;
  makeFakeableGlobalsWritable();
}

/**
 * vi.useFakeTimers() installs `class ClockDate extends Date` and assigns ClockDate.now; with Date
 * frozen that assignment hits the inherited read-only property and throws. Give the worker a Date
 * subclass whose statics are own writable properties (and writable copies of Intl and Temporal),
 * so fake timers work; the frozen originals stay untouched for everyone else.
 */
function makeFakeableGlobalsWritable(): void {
  class WorkerDate extends NativeDate {}
  for (const name of ['now', 'parse', 'UTC'] as const) {
    Object.defineProperty(WorkerDate, name, { value: NativeDate[name], writable: true, configurable: true });
  }
  Object.defineProperty(globalThis, 'Date', { value: WorkerDate, writable: true, configurable: true });
  realm.workerDate = WorkerDate as DateConstructor;
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

/** The name learner code is evaluated under: stack frames in it read `lab-submission.ts:LINE:COLUMN`. */
export const LEARNER_SOURCE_URL = 'lab-submission.ts';
/** Lines the module wrapper adds before the learner's first line. */
const WRAPPER_LINES = 1;

/** The learner module evaluated last in this realm (one per grading worker or CLI worker). */
/** Where in the learner's own source the innermost learner frame of a stack points, if any. */
export function learnerLocation(stack: string): SourcePosition | undefined {
  const current = realm.current;
  if (!current) return undefined;
  const escaped = LEARNER_SOURCE_URL.replace(/[.]/g, '\\.');
  const frame = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(stack.slice(0, 20_000));
  if (!frame) return undefined;
  return current.toSource(Number(frame[1]) - WRAPPER_LINES, Number(frame[2]) - 1);
}

type HostTimers = Record<'setTimeout' | 'setInterval' | 'clearTimeout' | 'clearInterval' | 'queueMicrotask', (...args: unknown[]) => unknown>;

function requireFunction(name: string, callback: unknown): asserts callback is (...args: unknown[]) => unknown {
  if (typeof callback !== 'function') {
    throw new TypeError(`${name} takes a function to call; lab code cannot pass it ${typeof callback === 'string' ? 'a string of code' : describeThrown(callback)}`);
  }
}

/**
 * Timers for learner code. Each reads the host's current timer at call time (so a suite's
 * vi.useFakeTimers() reaches the learner's code too), accepts only a function, calls it with
 * `this` undefined, and hands back a number, never the host's handle (in Node a Timeout object,
 * linked to every other pending timer). What a callback throws is logged, not left uncaught: an
 * uncaught error would fail a CLI run and be ignored by the page.
 */
function learnerTimers(log: (line: string) => void): Record<string, unknown> {
  const host = globalThis as unknown as HostTimers;
  const handles = new Map<number, { kind: 'timeout' | 'interval'; handle: unknown }>();
  let nextId = 1;
  const call = (name: string, callback: (...args: unknown[]) => unknown, args: unknown[]) => {
    try {
      Reflect.apply(callback, undefined, args);
    } catch (error) {
      log(`uncaught in a ${name} callback: ${describeThrown(error)}`);
    }
  };
  const schedule = (kind: 'timeout' | 'interval') => {
    const name = kind === 'timeout' ? 'setTimeout' : 'setInterval';
    return function (callback: unknown, delay?: unknown, ...args: unknown[]): number {
      requireFunction(name, callback);
      const id = nextId;
      nextId += 1;
      const ms = typeof delay === 'number' ? delay : 0;
      const handle = host[name](() => {
        if (kind === 'timeout') handles.delete(id);
        call(name, callback, args);
      }, ms);
      handles.set(id, { kind, handle });
      return id;
    };
  };
  // Either clear function cancels either kind, as in browsers and Node.
  const cancel = () =>
    function (id?: unknown): void {
      const entry = typeof id === 'number' ? handles.get(id) : undefined;
      if (!entry) return;
      handles.delete(id as number);
      host[entry.kind === 'timeout' ? 'clearTimeout' : 'clearInterval'](entry.handle);
    };
  return {
    setTimeout: schedule('timeout'),
    setInterval: schedule('interval'),
    clearTimeout: cancel(),
    clearInterval: cancel(),
    queueMicrotask(callback: unknown): void {
      requireFunction('queueMicrotask', callback);
      host.queueMicrotask(() => call('queueMicrotask', callback, []));
    },
  };
}

/**
 * Globals the learner sees: a console that prints through `log`, function-only timers,
 * structuredClone, and (below) a Date that follows the host's fake timers. All hardened.
 */
function learnerGlobals(log: (line: string) => void): Record<string, unknown> {
  const host = globalThis as unknown as { structuredClone: (value: unknown) => unknown };
  const print = (...args: unknown[]) => log(truncateText(args.map((value) => (typeof value === 'string' ? value : safeStringify(value))).join(' ')));
  const globals: Record<string, unknown> = {
    console: { log: print, info: print, warn: print, error: print, debug: print },
    ...learnerTimers(log),
    structuredClone: (value: unknown) => host.structuredClone(value),
  };
  for (const value of Object.values(globals)) harden(value);
  return globals;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? describeThrown(value);
  } catch {
    return describeThrown(value);
  }
}

/**
 * The Date learner code sees. Without fake timers it is a frozen subclass of the frozen Date, so
 * the code cannot change the host's Date (the worker's own Date has writable statics for vitest's
 * fake timers). While a suite has fake timers installed, it is the host's current Date.
 */
function learnerDate(): DateConstructor {
  const host = globalThis as unknown as { Date: DateConstructor };
  if (host.Date !== realm.workerDate && host.Date !== NativeDate) return host.Date;
  frozenDate ??= harden(class LabDate extends NativeDate {}) as DateConstructor;
  return frozenDate;
}
let frozenDate: DateConstructor | undefined;

/** A runtime import in learner code that the lab does not declare: refused clearly. */
function refuseImport(specifier: string): never {
  throw new Error(
    `Your code imports "${specifier}" at run time. Lab code must be self-contained: use "import type" for types from the runtime and write helpers in this file.`,
  );
}

export interface LoadOptions {
  /** Where the learner's console output goes. */
  log: (line: string) => void;
  /** The names the lab's module must export (lab.mdx frontmatter); all exports when absent. */
  exportNames?: readonly string[];
  /** Modules the lab lets learner code import at run time, by specifier. None by default. */
  imports?: Readonly<Record<string, unknown>>;
}

export interface LoadedModule {
  exports: Readonly<Record<string, unknown>>;
  transpileMs: number;
}

/** The learner's module could not be compiled or evaluated; the message says why and where. */
export class LearnerLoadError extends Error {
  constructor(message: string) {
    super(message);
    // defineProperty, not assignment: after lockdown the inherited `name` is read-only.
    Object.defineProperty(this, 'name', { value: 'LearnerLoadError', writable: true, configurable: true });
  }
}

/**
 * Compiles the learner's TypeScript and evaluates it in a fresh Compartment; returns a frozen copy
 * of the exports the lab declares, read once. Throws LearnerLoadError with a message for the
 * learner (syntax error with line and column, a throw at top level, a refused import).
 */
export function loadLearnerModule(source: string, options: LoadOptions): LoadedModule {
  lockdownOnce();
  let prepared: PreparedSource;
  try {
    prepared = prepareLearnerSource(source);
  } catch (error) {
    throw new LearnerLoadError(`Your code could not be loaded: ${error instanceof LearnerSyntaxError ? `SyntaxError: ${error.message}` : describeThrown(error)}`);
  }
  realm.current = prepared;
  let exports: Record<string, unknown>;
  try {
    exports = evaluatePrepared(prepared.code, options);
  } catch (error) {
    throw new LearnerLoadError(`Your code could not be loaded: ${loadProblem(error)}`);
  }
  const names = options.exportNames ?? Object.keys(exports);
  const snapshot: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of names) {
    try {
      snapshot[name] = Reflect.get(exports, name);
    } catch (error) {
      throw new LearnerLoadError(`Your code could not be loaded: reading its export "${name}" threw ${describeThrown(error)}`);
    }
  }
  return { exports: Object.freeze(snapshot), transpileMs: prepared.transpileMs };
}

/** A load failure in the learner's words: SES refusals and runtime errors with the learner's line. */
function loadProblem(error: unknown): string {
  const description = describeThrown(error);
  const refused = /^SyntaxError: Possible (.*) rejected at [^:]*:(\d+)\. \(SES_\w+\)$/.exec(description);
  if (refused) {
    const position = realm.current?.toSource(Number(refused[2]) - WRAPPER_LINES, 0);
    const what = refused[1] === 'direct eval expression' ? 'a direct call of eval(...), which lab code cannot use' : `what looks like ${refused[1]}`;
    return `SyntaxError: ${what}${position ? ` (line ${position.line})` : ''}`;
  }
  let stack: unknown;
  try {
    stack = error !== null && typeof error === 'object' ? Reflect.get(error, 'stack') : undefined;
  } catch {
    stack = undefined;
  }
  const location = typeof stack === 'string' ? learnerLocation(stack) : undefined;
  return location ? `${description} (line ${location.line}, column ${location.column})` : description;
}

/**
 * Evaluates compiled learner code (prepared by prepareLearnerSource) in a fresh Compartment and
 * returns its exports object. Throws what the code's top level throws.
 */
export function evaluateLearnerModule(commonJsCode: string, log: (line: string) => void): Record<string, unknown> {
  lockdownOnce();
  return evaluatePrepared(commonJsCode, { log });
}

function evaluatePrepared(commonJsCode: string, options: LoadOptions): Record<string, unknown> {
  const compartment = new Compartment({ globals: learnerGlobals(options.log), __options__: true });
  // Date is read through a getter so fake timers installed later in the test are seen.
  Object.defineProperty(compartment.globalThis, 'Date', { get: learnerDate });
  const [globalNames, globalValues] = bindableGlobals(compartment.globalThis);
  const wrapper = `(function (exports, require, module, ${globalNames.join(', ')}) {\n${commonJsCode}\n})\n//# sourceURL=${LEARNER_SOURCE_URL}\n`;
  const moduleFunction = compartment.evaluate(wrapper) as (
    exports: Record<string, unknown>,
    require: (specifier: string) => unknown,
    module: { exports: Record<string, unknown> },
    ...globals: unknown[]
  ) => void;
  const imports = options.imports ?? {};
  const require = harden((specifier: string) => (Object.hasOwn(imports, specifier) ? imports[specifier] : refuseImport(String(specifier))));
  const exports: Record<string, unknown> = {};
  moduleFunction(exports, require, { exports }, ...globalValues);
  return exports;
}
