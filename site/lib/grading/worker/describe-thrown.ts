// Describing what learner code threw, without trusting it. A thrown value can be anything: a
// null-prototype object (no toString, so String(value) throws), a symbol, an object whose getters
// throw or never return, a Proxy, a cyclic structure, a string of a hundred megabytes. Every read
// here is guarded, every text is capped, and nothing is converted implicitly, so describing a value
// always returns a short readable string. Shared by both grading hosts (the page's worker and the
// CLI), so both report the same words.

/** The longest text a report carries for one message, expected or actual value. */
export const MAX_TEXT = 4000;

export function truncateText(text: string, max = MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Reads `object[key]`, or undefined when the read throws (a getter, a Proxy trap). */
export function safeRead(object: object, key: PropertyKey): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: Reflect.get(object, key) };
  } catch {
    return { ok: false };
  }
}

function safeString(object: object, key: PropertyKey): string | undefined {
  const read = safeRead(object, key);
  return read.ok && typeof read.value === 'string' ? read.value : undefined;
}

function quote(text: string): string {
  return JSON.stringify(truncateText(text, 200));
}

/** A one-line preview of a primitive value (strings quoted). */
function primitive(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'bigint':
      return `${value.toString()}n`;
    case 'symbol':
      return symbolText(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    default:
      return value === null ? 'null' : typeof value === 'function' ? 'a function' : 'an object';
  }
}

function symbolText(value: symbol): string {
  try {
    return truncateText(Symbol.prototype.toString.call(value), 200);
  } catch {
    return 'a symbol';
  }
}

/** `{ code: 42, reason: "x" }`: a few own keys of an object, one level deep, or undefined if unreadable. */
function preview(value: object): string | undefined {
  let keys: (string | symbol)[];
  try {
    keys = Reflect.ownKeys(value);
  } catch {
    return undefined;
  }
  const shown: string[] = [];
  for (const key of keys.slice(0, 6)) {
    const name = typeof key === 'symbol' ? `[${symbolText(key)}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
    let descriptor: PropertyDescriptor | undefined;
    try {
      descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    } catch {
      descriptor = undefined;
    }
    // Getters are not called: they are the learner's code and may throw or loop.
    const text = !descriptor ? '?' : 'value' in descriptor ? primitive(descriptor.value) : '(a getter)';
    shown.push(`${name}: ${text}`);
  }
  if (keys.length > 6) shown.push(`… ${keys.length - 6} more`);
  return shown.length ? `{ ${shown.join(', ')} }` : '{}';
}

/**
 * A short description of any thrown (or returned) value, e.g. `a string "x"`, `Symbol(boom)`,
 * `an object with a null prototype: { code: 42 }`, `TypeError: x is not a function`.
 */
export function describeThrown(value: unknown): string {
  try {
    if (typeof value === 'string') return `a string ${quote(value)}`;
    if (typeof value === 'function') {
      const name = safeString(value, 'name');
      return name ? `a function named ${quote(name)}` : 'a function';
    }
    if (value === null || typeof value !== 'object') return primitive(value);
    const message = safeString(value, 'message');
    if (message !== undefined) {
      const name = safeString(value, 'name');
      return truncateText(`${name && /^[\w$ ]{1,60}$/.test(name) ? name : 'Error'}: ${message}`);
    }
    let prototype: object | null | undefined;
    try {
      prototype = Reflect.getPrototypeOf(value);
    } catch {
      prototype = undefined;
    }
    const kind = Array.isArray(value) ? 'an array' : prototype === null ? 'an object with a null prototype' : 'an object';
    const shown = preview(value);
    return shown === undefined ? `${kind} that could not be read` : `${kind}: ${shown}`;
  } catch {
    return 'a value that could not be described';
  }
}
