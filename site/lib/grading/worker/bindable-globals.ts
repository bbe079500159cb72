// Free names in code evaluated by an SES Compartment resolve through a `with` scope proxy: every
// `Math`, `Map` or `Object` in a hot loop is a proxy trap. The sandbox binds the compartment's
// global values as parameters of the learner's module wrapper instead, so they resolve lexically.

/**
 * Names the module wrapper must not bind: its own parameters, eval (a parameter would make
 * `eval(...)` indirect), globalThis, and words a strict-mode parameter cannot be named.
 */
export const UNBINDABLE = new Set([
  'exports', 'require', 'module', 'eval', 'arguments', 'globalThis',
  'let', 'static', 'yield', 'await', 'implements', 'interface', 'package', 'private', 'protected', 'public',
]);

/**
 * The compartment's global data properties that can be bound as parameters of the module wrapper.
 * Code evaluated in a Compartment resolves free names through SES's `with` scope proxy, which makes
 * every `Math`, `Map` or `Object` in a hot loop a proxy trap (a scoring loop ran about 20% slower).
 * Bound as parameters, the same objects resolve lexically. Accessors (Date, which follows fake
 * timers) are left to the scope proxy, so they are still read at each use.
 */
export function bindableGlobals(compartmentGlobal: object): [string[], unknown[]] {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(compartmentGlobal))) {
    if (!('value' in descriptor) || UNBINDABLE.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
    names.push(name);
    values.push(descriptor.value);
  }
  return [names, values];
}
