// /livez, /readyz and /healthz: named checks, answered as kube-apiserver's healthz package does.
// mirrors staging/src/k8s.io/apiserver/pkg/server/healthz/healthz.go (handleRootHealth): each check
// prints "[+]<name> ok" or "[-]<name> failed: reason withheld" (the reason is for the server's log,
// not the public endpoint); ?exclude=<name> skips one ("[+]<name> excluded: ok"); all passing
// answers "ok", or the list and "<endpoint> check passed" with ?verbose; any failing answers 500
// with the list and "<endpoint> check failed" whatever was asked. /readyz/<name> runs one check.
// The checks are the ones this simulation runs, under their upstream names.

import { unescapeComponent } from '../api/index.ts';

/** A URL query's values by key ("verbose&exclude=etcd&exclude=log"). */
export type HealthQuery = ReadonlyMap<string, readonly string[]>;

export function parseQuery(query: string): HealthQuery {
  const out = new Map<string, string[]>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = unescapeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : unescapeComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    out.set(key, [...(out.get(key) ?? []), value]);
  }
  return out;
}

/** A check's verdict: undefined when it passes, else why (kept out of the public answer). */
export type HealthCheck = (done: (error?: string) => void) => void;

export interface HealthAnswer {
  code: number;
  body: string;
}

/** Runs `checks` in order (each may answer later) and builds the endpoint's answer. */
export function runHealthChecks(
  endpoint: 'livez' | 'readyz' | 'healthz',
  checks: readonly (readonly [name: string, check: HealthCheck])[],
  query: HealthQuery,
  answer: (a: HealthAnswer) => void,
): void {
  const excluded = new Set(query.get('exclude') ?? []);
  const lines: string[] = [];
  let failed = false;
  const next = (i: number): void => {
    if (i === checks.length) return finish();
    const [name, check] = checks[i]!;
    if (excluded.delete(name)) {
      lines.push(`[+]${name} excluded: ok`);
      return next(i + 1);
    }
    check((error) => {
      if (error === undefined) lines.push(`[+]${name} ok`);
      else {
        failed = true;
        lines.push(`[-]${name} failed: reason withheld`);
      }
      next(i + 1);
    });
  };
  const finish = (): void => {
    if (excluded.size > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => `"${n}"`).join(',')}`);
    const list = lines.map((l) => `${l}\n`).join('');
    // http.Error ends its text with a newline
    if (failed) return answer({ code: 500, body: `${list}${endpoint} check failed\n` });
    if (!query.has('verbose')) return answer({ code: 200, body: 'ok' });
    answer({ code: 200, body: `${list}${endpoint} check passed\n` });
  };
  next(0);
}

/** /readyz/<name>: one check; adaptCheckToHandler's answers. */
export function runOneHealthCheck(check: HealthCheck, answer: (a: HealthAnswer) => void): void {
  check((error) => answer(error === undefined ? { code: 200, body: 'ok' } : { code: 500, body: `internal server error: ${error}\n` }));
}
