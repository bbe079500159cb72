// The network programs an exec'd command can run: curl (7.88, in the nginx images), and busybox's
// wget and nslookup. Each connects through the pod's network namespace (ExecEnvironment.network:
// the cluster's simulated resolver, kube-proxy's rules and the pod network), and prints what the
// real program prints for the outcomes the simulation has: a page, a name that does not resolve, a
// refused connection, a connection that times out. Progress meters are left out.
import type { ExecEnvironment, ExecOutput, HttpGetResult } from './userland.ts';

/** Linux gives up a TCP connect after tcp_syn_retries (6) unanswered SYNs: 1+2+...+64 s. */
const SYN_TIMEOUT_MS = 127_000;

interface Url {
  host: string;
  port: number;
}

/** http://host[:port][/path] or host[:port][/path]; undefined when it is not one. */
function parseUrl(text: string): Url | undefined {
  const m = /^(?:(https?):\/\/)?([^/:?#\s]+)(?::(\d+))?(?:[/?#].*)?$/.exec(text);
  if (!m) return undefined;
  const port = m[3] !== undefined ? Number(m[3]) : m[1] === 'https' ? 443 : 80;
  return port > 0 && port < 65536 ? { host: m[2]!, port } : undefined;
}

/** A connection from the pod, or the reason there is none (a pod with no network cannot dial at all). */
function get(env: ExecEnvironment, url: Url): HttpGetResult {
  return env.network ? env.network.httpGet(url.host, url.port) : { ok: false, failure: 'unreachable' };
}

/** curl [-s] [-S] [-f] [-L] [-m SECONDS] URL: the body on stdout; errors as curl's "(N) ..." lines. */
export function curl(args: readonly string[], env: ExecEnvironment, out: ExecOutput): void {
  let silent = false;
  let showError = false;
  let maxTimeMs: number | undefined;
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--silent') silent = true;
    else if (a === '--show-error') showError = true;
    else if (a === '--fail' || a === '--location') continue;
    else if (a === '-m' || a === '--max-time') maxTimeMs = Number(args[++i]) * 1000;
    else if (/^-[sSfL]+$/.test(a)) {
      if (a.includes('s')) silent = true;
      if (a.includes('S')) showError = true;
    } else if (a.startsWith('-')) {
      out.stderr += `curl: option ${a}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n`;
      out.exitCode = 2;
      return;
    } else target = a;
  }
  const fail = (code: number, message: string): void => {
    if (!silent || showError) out.stderr += `curl: (${code}) ${message}\n`;
    out.exitCode = code;
  };
  if (target === undefined) {
    out.stderr += "curl: try 'curl --help' or 'curl --manual' for more information\n";
    out.exitCode = 2;
    return;
  }
  const url = parseUrl(target);
  if (!url) return fail(3, 'URL using bad/illegal format or missing URL');
  const r = get(env, url);
  if (r.ok) {
    out.stdout += r.body;
    return;
  }
  const connect = (afterMs: number): string => `Failed to connect to ${url.host} port ${url.port} after ${afterMs} ms: Couldn't connect to server`;
  switch (r.failure) {
    case 'resolve':
      return fail(6, `Could not resolve host: ${url.host}`);
    case 'refused':
    case 'unreachable':
      return fail(7, connect(0));
    case 'timeout':
      if (maxTimeMs !== undefined && Number.isFinite(maxTimeMs) && maxTimeMs < SYN_TIMEOUT_MS) {
        out.durationMs += maxTimeMs;
        return fail(28, `Connection timed out after ${maxTimeMs + 1} milliseconds`);
      }
      out.durationMs += SYN_TIMEOUT_MS;
      return fail(7, connect(SYN_TIMEOUT_MS));
  }
}

/** busybox wget [-q] -O- URL (-qO-, -O -): the body on stdout; "Connecting to ..." on stderr unless -q. */
export function wget(args: readonly string[], env: ExecEnvironment, out: ExecOutput): void {
  let quiet = false;
  let toStdout = false;
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^-([qO]+)(.*)$/.exec(a);
    if (m) {
      if (m[1]!.includes('q')) quiet = true;
      if (m[1]!.endsWith('O')) toStdout = (m[2] !== '' ? m[2] : args[++i]) === '-';
    } else if (a === '--quiet') quiet = true;
    else target = a;
  }
  if (target === undefined) {
    out.stderr += 'Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n';
    out.exitCode = 1;
    return;
  }
  if (!toStdout) {
    out.stderr += 'wget: saving to a file is not simulated by Inside the Control Plane (use -O-)\n';
    out.exitCode = 126;
    return;
  }
  const url = parseUrl(target);
  if (!url) {
    out.stderr += `wget: not an http or ftp url: ${target}\n`;
    out.exitCode = 1;
    return;
  }
  const r = get(env, url);
  if (r.ok) {
    if (!quiet) out.stderr += `Connecting to ${url.host} (${r.address})\nwriting to stdout\n`;
    out.stdout += r.body;
    if (!quiet) out.stderr += 'written to stdout\n';
    return;
  }
  out.exitCode = 1;
  const address = r.address?.replace(/:\d+$/, '') ?? url.host;
  switch (r.failure) {
    case 'resolve':
      out.stderr += `wget: bad address '${url.host}'\n`;
      return;
    case 'refused':
      out.stderr += `${quiet ? '' : `Connecting to ${url.host} (${r.address ?? url.host})\n`}wget: can't connect to remote host (${address}): Connection refused\n`;
      return;
    case 'unreachable':
      out.stderr += `${quiet ? '' : `Connecting to ${url.host} (${r.address ?? url.host})\n`}wget: can't connect to remote host (${address}): No route to host\n`;
      return;
    case 'timeout':
      out.durationMs += SYN_TIMEOUT_MS;
      out.stderr += `${quiet ? '' : `Connecting to ${url.host} (${r.address ?? url.host})\n`}wget: can't connect to remote host (${address}): Connection timed out\n`;
  }
}

/** busybox nslookup NAME: the server, then the name the search list found and its addresses. */
export function nslookup(args: readonly string[], env: ExecEnvironment, out: ExecOutput): void {
  const name = args.find((a) => !a.startsWith('-'));
  if (name === undefined) {
    out.stderr += 'Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n';
    out.exitCode = 1;
    return;
  }
  const network = env.network;
  const server = network?.nameserver ?? '';
  const answer = network?.lookup(name) ?? { ok: false, timedOut: true };
  if (!answer.ok && answer.timedOut) {
    out.stdout += ';; connection timed out; no servers could be reached\n\n';
    out.exitCode = 1;
    return;
  }
  out.stdout += `Server:\t\t${server}\nAddress:\t${server}:53\n\n`;
  if (!answer.ok) {
    out.stdout += `** server can't find ${name}: NXDOMAIN\n\n`;
    out.exitCode = 1;
    return;
  }
  for (const address of answer.addresses) out.stdout += `Name:\t${answer.name}\nAddress: ${address}\n\n`;
}
