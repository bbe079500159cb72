// How kubectl prints failures and successes.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (checkErr, StandardErrorMessage,
// MultilineError, statusCausesToAggrError) and the operation lines of
// staging/src/k8s.io/cli-runtime/pkg/printers/name.go ("deployment.apps/web created").
import type { Status } from '../../api/index.ts';

/** The text kubectl prints on stderr for an API Status error (with the final newline). */
export function formatStatusError(status: Status): string {
  // code 0: no HTTP answer at all (the REST client's failure Status for a *url.Error)
  if (status.code === 0 && !status.reason) return connectionError(status.message ?? '');
  if (status.reason === 'Invalid' && status.details) return invalidMessage(status);
  if (status.reason === 'Unauthorized')
    return `error: You must be logged in to the server (${status.message ?? ''})\n`;
  if (status.reason) return `Error from server (${status.reason}): ${status.message ?? ''}\n`;
  return `Error from server: ${status.message ?? ''}\n`;
}

/**
 * StandardErrorMessage's *url.Error case: a refused connection names the server's host, any other
 * failure (EOF, a timeout) is "Unable to connect to the server: <err>". A message that is not
 * `<Method> "<url>": <err>` is already kubectl's text (the refusal) or was wrapped by fmt.Errorf
 * (AddSourceToErr: "error when creating ..."), which kubectl prints after "error: ".
 */
function connectionError(message: string): string {
  const m = /^[A-Z][a-z]+ "([^"]*)": ([\s\S]*)$/.exec(message);
  if (!m) return message.startsWith('The connection to the server ') ? `${message}\n` : clientError(message);
  const [, url, err] = m as unknown as [string, string, string];
  if (err.includes('connection refused')) {
    const host = /^[a-z]+:\/\/([^/?#]*)/.exec(url)?.[1] ?? url;
    return `The connection to the server ${host} was refused - did you specify the right host or port?\n`;
  }
  return `Unable to connect to the server: ${err}\n`;
}

/** kubectl's special form for 422: `The Pod "x" is invalid: spec.containers[0].image: Required value`. */
function invalidMessage(status: Status): string {
  const details = status.details!;
  const prefix =
    details.kind || details.name
      ? `The ${details.kind ?? ''} "${details.name ?? ''}" is invalid`
      : 'The request is invalid';
  const causes = (details.causes ?? []).map((c) =>
    c.field ? `${c.field}: ${c.message ?? ''}` : (c.message ?? ''),
  );
  if (causes.length === 0) return `error: ${prefix}\n`;
  if (causes.length === 1) return `${prefix}: ${causes[0]}\n`;
  return `${prefix}: \n${causes.map((c) => `* ${c}\n`).join('')}`;
}

/** "error: " prefix for client-side errors, newline-terminated. */
export function clientError(message: string): string {
  const text = message.startsWith('error: ') ? message : `error: ${message}`;
  return text.endsWith('\n') ? text : `${text}\n`;
}

export type Operation =
  | 'created'
  | 'replaced'
  | 'configured'
  | 'unchanged'
  | 'deleted'
  | 'scaled'
  | 'cordoned'
  | 'uncordoned'
  | 'already cordoned'
  | 'already uncordoned'
  | 'drained'
  | 'tainted'
  | 'untainted'
  | 'labeled'
  | 'unlabeled'
  | 'not labeled'
  | 'restarted'
  | 'rolled back'
  | 'image updated'
  | 'evicted'
  | 'modified'
  | 'paused'
  | 'resumed'
  | 'annotated'
  | 'exposed';

/** "deployment.apps/web created", with " (dry run)" for --dry-run=client. */
export function operationLine(
  typePrefix: string,
  name: string,
  op: Operation,
  dryRun: boolean | 'server' = false,
): string {
  return `${typePrefix}/${name} ${op}${dryRunSuffix(dryRun)}\n`;
}

/** What the printers append under --dry-run=client (true) or --dry-run=server. */
export const dryRunSuffix = (dryRun: boolean | 'server'): string =>
  dryRun === 'server' ? ' (server dry run)' : dryRun ? ' (dry run)' : '';

/**
 * delete prints the resource (plural-less kind) and quoted name: `pod "x" deleted`, or
 * `pod "x" force deleted` at grace period 0 (delete.go PrintObj).
 */
export function deletedLine(typePrefix: string, name: string, dryRun: boolean | 'server' = false, force = false): string {
  return `${typePrefix} "${name}" ${force ? 'force deleted' : 'deleted'}${dryRunSuffix(dryRun)}\n`;
}

/** "No resources found in default namespace." (or "No resources found" with -A), on stderr. */
export function noResourcesFound(namespace: string | undefined): string {
  return namespace === undefined
    ? 'No resources found\n'
    : `No resources found in ${namespace} namespace.\n`;
}
