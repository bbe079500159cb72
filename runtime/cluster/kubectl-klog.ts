// What kubectl's client-go writes on stderr while a command runs: klog lines such as client-side
// throttling's "Waited before sending request". Each kubectl run is a new process: a full token
// bucket (rest.DefaultQPS 5 / DefaultBurst 10) and a fresh throttled logger, at the run's -v.
import { klogLine } from '../cli/index.ts';
import { ThrottleLog, type ClientRateLimits, type RestClient } from '../client/index.ts';

/** Where client-go v1.32+ logs the line (request.go:752, as kubectl prints it). */
const THROTTLE_LOG_SOURCE = 'request.go:752';

export interface KubectlRun {
  /** The client kubectl uses for this run: the shared connection with a bucket of its own. */
  client: RestClient;
  /** The klog and warning lines written so far, each ending in a newline. */
  stderr(): string;
  /**
   * A Warning header the server sent: "Warning: <text>" on stderr, once per text per run
   * (kubectl's rest.NewWarningWriter with Deduplicate: true).
   */
  warn(text: string): void;
}

export function kubectlRun(client: RestClient, limits: ClientRateLimits, args: string, now: () => number): KubectlRun {
  let stderr = '';
  const log = new ThrottleLog((line) => {
    stderr += klogLine(now(), 'I', THROTTLE_LOG_SOURCE, line);
  }, verbosity(args));
  const warned = new Set<string>();
  const warn = (text: string): void => {
    if (warned.has(text)) return;
    warned.add(text);
    stderr += `Warning: ${text}\n`;
  };
  // each kubectl run is a process of its own: its own connection and a full token bucket
  return { client: client.withOwnConnection().withLimits(limits, log), stderr: () => stderr, warn };
}

/** kubectl's -v / --v level (klog's flag), 0 when absent or malformed. */
export function verbosity(args: string): number {
  const m = /(?:^|\s)--?v(?:=|\s+)(\d+)(?=\s|$)/.exec(args);
  return m ? Number(m[1]) : 0;
}
