import { describe, expect, it } from 'vitest';
import { bindableGlobals } from './bindable-globals.ts';

describe('bindableGlobals', () => {
  it('binds data properties with identifier names, in order, with their values', () => {
    const log = () => undefined;
    const [names, values] = bindableGlobals({ Math, console: { log }, $x_1: 1 });
    expect(names).toEqual(['Math', 'console', '$x_1']);
    expect(values[0]).toBe(Math);
    expect(values[2]).toBe(1);
  });

  it('leaves accessors (Date follows fake timers), eval, globalThis, the wrapper parameters and non-identifiers to the scope', () => {
    const global = { eval: () => 0, globalThis: {}, exports: {}, require: () => 0, module: {}, arguments: [], 'not-a-name': 1, '1st': 2, Map };
    Object.defineProperty(global, 'Date', { get: () => Date, enumerable: true });
    const [names] = bindableGlobals(global);
    expect(names).toEqual(['Map']);
  });

  it('includes non-enumerable globals (the intrinsics of a compartment are not enumerable)', () => {
    const global = {};
    Object.defineProperty(global, 'JSON', { value: JSON, enumerable: false });
    expect(bindableGlobals(global)[0]).toEqual(['JSON']);
  });
});
