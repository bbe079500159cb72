// Setup file of every grading run, loaded before the suite imports the learner's module.
// The browser grades learner code inside an SES Compartment after lockdown(); the CLI runs it in
// the test worker's own realm, so a learner file could replace a built-in that assertions rely on
// (`Object.is = () => true` turns every toBe into a pass). Freezing those built-ins here closes
// that door: the replacement throws (modules are strict) or is ignored. Only namespaces and
// methods are frozen, not Object.prototype or Function.prototype: freezing those would break
// ordinary assignments such as `obj.toString = ...` in vitest itself (the "override mistake").
const namespaces: object[] = [
  Object,
  Array,
  JSON,
  Reflect,
  Math,
  Number,
  String,
  Symbol,
  Promise,
  Map,
  Set,
  WeakMap,
  WeakSet,
  BigInt,
];
for (const ns of namespaces) Object.freeze(ns);

const prototypes: object[] = [
  Array.prototype,
  String.prototype,
  Number.prototype,
  Map.prototype,
  Set.prototype,
  Promise.prototype,
  RegExp.prototype,
];
for (const proto of prototypes) Object.freeze(proto);

// Single methods on the two prototypes that cannot be frozen whole.
for (const [proto, names] of [
  [Object.prototype, ['hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'valueOf']],
  [Function.prototype, ['call', 'apply', 'bind']],
] as const) {
  for (const name of names)
    Object.defineProperty(proto, name, { writable: false, configurable: false });
}

// chai (inside vitest's expect) keeps its configuration on a global symbol: pin it.
const chaiKey = Symbol.for('chai');
const g = globalThis as Record<PropertyKey, unknown>;
if (g[chaiKey] && typeof g[chaiKey] === 'object') Object.freeze(g[chaiKey]);
Object.defineProperty(globalThis, chaiKey, {
  value: g[chaiKey],
  writable: false,
  configurable: false,
});
