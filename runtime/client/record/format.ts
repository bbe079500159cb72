// A small subset of Go's fmt verbs, enough for the messages controllers record
// ("Created pod: %v", "Scaled up replica set %s to %d from %d", "%q").
// mirrors the verbs of Go's fmt package that client-go record.Eventf callers use.

/** Formats like Go's fmt.Sprintf for %v %s %d %q and %%; extra arguments are appended as Go does. */
export function sprintf(format: string, ...args: readonly unknown[]): string {
  let next = 0;
  const out = format.replace(/%([vsdq%])/g, (_match, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[next++];
    if (verb === 'q') return JSON.stringify(String(arg));
    if (verb === 'd' && typeof arg !== 'number') return `%!d(${typeof arg}=${String(arg)})`;
    return String(arg);
  });
  if (next < args.length) return `${out}%!(EXTRA ${args.slice(next).map(String).join(', ')})`;
  return out;
}
