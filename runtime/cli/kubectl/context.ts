// What every kubectl command gets: parsed arguments, the transport, simulated time, and the
// output buffers. Requests carry --as/--as-group impersonation automatically.
import type { KubeObject, ResourceInfo, Status } from '../../api/index.ts';
import type { ParsedArgs } from './args.ts';
import { COMMAND_FLAGS, flagBool, flagInt, flagString, flagStrings } from './args.ts';
import { httpMethod, requestURL, responseLine } from './request-log.ts';
import { contextCredentials, contextNamespace, type Kubeconfig } from './kubeconfig.ts';
import { clientError, formatStatusError } from './errors.ts';
import type {
  GroupVersionResource,
  KubeRequest,
  KubeResponse,
  KubeTransport,
} from './transport.ts';

export interface KubectlIo {
  /** Simulated milliseconds since boot: the "now" of every AGE column. */
  nowMs: number;
  /** The simulated clock, when output is printed over time (watch); overrides nowMs. */
  now?: () => number;
  /** Standard input, for `-f -`. */
  stdin?: string;
  /** Files `-f <path>` may read (the terminal's in-memory files). */
  files?: Readonly<Record<string, string>>;
  /** The kubeconfig cluster's server URL (cluster-info prints it). */
  serverURL?: string;
  /** The kubeconfig context's namespace (default "default"), when there is no kubeconfig. */
  defaultNamespace?: string;
  /** The terminal's kubeconfig, kept between commands (`kubectl config` reads and changes it). */
  kubeconfig?: Kubeconfig;
  /**
   * How long `get -w` and `rollout status` keep watching (simulated ms), and the kernel timer
   * that ends the window. Without both, they print the current state once and return.
   */
  watchForMs?: number;
  /**
   * How long a wait that real kubectl keeps up until Ctrl+C (drain with --timeout=0) lasts in this
   * non-interactive terminal; it then ends as if --timeout had been given this value.
   */
  waitForeverMs?: number;
  after?: (delayMs: number, callback: () => void) => void;
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The server of a kubeconfig-less terminal (kubeadm's default API server address). */
const DEFAULT_SERVER_URL = 'https://127.0.0.1:6443';

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export class Ctx {
  stdout = '';
  stderr = '';
  /** Set by any failed step; the exit code is 1 when true. */
  failed = false;
  /** An exit code other than 1 (exec passes on the remote command's: CheckErr's ExitError). */
  exitCode: number | undefined;
  readonly namespace: string;
  readonly namespaceExplicit: boolean;
  readonly allNamespaces: boolean;

  constructor(
    readonly args: ParsedArgs,
    readonly transport: KubeTransport,
    readonly io: KubectlIo,
  ) {
    const ns = flagString(args, 'namespace');
    this.namespaceExplicit = ns !== undefined && ns !== '';
    const fromConfig = io.kubeconfig ? contextNamespace(io.kubeconfig, flagString(args, 'context')) : undefined;
    this.namespace = this.namespaceExplicit ? ns! : (fromConfig ?? io.defaultNamespace ?? 'default');
    this.allNamespaces = flagBool(args, 'all-namespaces');
  }

  get nowMs(): number {
    return this.io.now ? this.io.now() : this.io.nowMs;
  }

  out(text: string): void {
    this.stdout += text;
  }

  /** A client-side error: "error: ..." on stderr. */
  error(message: string): void {
    this.stderr += clientError(message);
    this.failed = true;
  }

  statusError(status: Status): void {
    this.stderr += formatStatusError(status);
    this.failed = true;
  }

  /**
   * --dry-run as the name printer shows it: true for client (" (dry run)"), 'server'
   * (" (server dry run)"), false for none. Client dry runs send nothing; server ones send
   * every write with dryRun=All (request()), so the server runs the whole pipeline and stores nothing.
   */
  get dryRunPrint(): boolean | 'server' {
    const mode = flagString(this.args, 'dry-run');
    return mode === 'client' ? true : mode === 'server' ? 'server' : false;
  }

  /**
   * cmdutil.GetValidationDirective: --validate (strict, the default, or true; warn; ignore or false)
   * as the fieldValidation query parameter, for the commands that have the flag; undefined for the others.
   */
  get fieldValidation(): 'Strict' | 'Warn' | 'Ignore' | undefined {
    const v = validationDirective(this.args);
    return v !== undefined && 'value' in v ? v.value : undefined;
  }

  /**
   * The query of a create, update or patch that kubectl sends through resource.Helper
   * WithFieldManager(...).WithFieldValidation(...): the command's field manager (kubectl-create,
   * kubectl-client-side-apply, ...) and --validate's directive.
   */
  writeQuery(): { fieldManager?: string; fieldValidation?: 'Strict' | 'Warn' | 'Ignore' } {
    const manager = FIELD_MANAGERS[this.args.command];
    const validation = this.fieldValidation;
    return { ...(manager ? { fieldManager: manager } : {}), ...(validation ? { fieldValidation: validation } : {}) };
  }

  /**
   * Sends a request with this invocation's impersonation headers (and dryRun=All under
   * --dry-run=server); at -v=6 and above each round trip is logged as client-go's debugging
   * round tripper logs it (request-log.ts).
   */
  request(req: Omit<KubeRequest, 'impersonate'>, done: (res: KubeResponse) => void): void {
    if (this.dryRunPrint === 'server' && WRITE_VERBS.has(req.verb)) req = { ...req, query: { ...req.query, dryRun: 'All' } };
    const impersonate = this.impersonation();
    const token = this.bearerToken();
    const full: KubeRequest = { ...req, ...(impersonate ? { impersonate } : {}), ...(token ? { token } : {}) };
    if ((flagInt(this.args, 'v') ?? 0) < 6) return this.transport.request(full, done);
    const sentAt = this.nowMs;
    this.transport.request(full, (res) => {
      const code = res.ok ? (res.code ?? (req.verb === 'create' ? 201 : 200)) : (res.status.code ?? 0);
      const url = requestURL(this.io.serverURL ?? DEFAULT_SERVER_URL, full);
      this.stderr += responseLine(this.nowMs, httpMethod(full), url, code, this.nowMs - sentAt);
      done(res);
    });
  }

  /** A GET of a path (`get --raw`), with this invocation's impersonation headers. */
  raw(path: string, done: Parameters<KubeTransport['raw']>[1]): void {
    const impersonate = this.impersonation();
    const token = this.bearerToken();
    this.transport.raw({ path, ...(impersonate ? { impersonate } : {}), ...(token ? { token } : {}) }, done);
  }

  /** --token, else the token of the context's user in the kubeconfig (set-credentials --token). */
  private bearerToken(): string | undefined {
    const flag = flagString(this.args, 'token');
    if (flag) return flag;
    const creds = this.io.kubeconfig ? contextCredentials(this.io.kubeconfig, flagString(this.args, 'context')) : undefined;
    return creds?.ok ? creds.token : undefined;
  }

  /** --as and --as-group, as Impersonate-User and Impersonate-Group headers. */
  private impersonation(): KubeRequest['impersonate'] {
    const user = flagString(this.args, 'as');
    const groups = flagStrings(this.args, 'as-group');
    return user !== undefined || groups.length > 0 ? { user, groups: groups.length > 0 ? groups : undefined } : undefined;
  }

  /** The namespace a request on this resource goes to (undefined for cluster-scoped or -A lists). */
  namespaceFor(info: ResourceInfo, object?: KubeObject): string | undefined {
    if (!info.namespaced) return undefined;
    return object?.metadata.namespace ?? this.namespace;
  }
}

/** Each writing command's default --field-manager. */
const FIELD_MANAGERS: Readonly<Record<string, string>> = {
  apply: 'kubectl-client-side-apply',
  create: 'kubectl-create',
  replace: 'kubectl-replace',
  run: 'kubectl-run',
  expose: 'kubectl-expose',
};

const GO_BOOLS: Readonly<Record<string, boolean>> = {
  '1': true, t: true, T: true, TRUE: true, true: true, True: true,
  '0': false, f: false, F: false, FALSE: false, false: false, False: false,
};

/** GetValidationDirective for a command with --validate (undefined without the flag); an unknown value is an error. */
export function validationDirective(args: ParsedArgs): { value: 'Strict' | 'Warn' | 'Ignore' } | { error: string } | undefined {
  if (!(COMMAND_FLAGS[args.command] ?? []).some((f) => f.name === 'validate')) return undefined;
  const flag = flagString(args, 'validate') ?? 'strict';
  // strconv.ParseBool first, then the three names
  const bool = GO_BOOLS[flag];
  if (bool !== undefined) return { value: bool ? 'Strict' : 'Ignore' };
  if (flag === 'strict') return { value: 'Strict' };
  if (flag === 'warn') return { value: 'Warn' };
  if (flag === 'ignore') return { value: 'Ignore' };
  return { error: `invalid - validate option ${JSON.stringify(flag)}; must be one of: strict (or true), warn, ignore (or false)` };
}

export function gvr(info: ResourceInfo): GroupVersionResource {
  return { group: info.group, version: info.version, resource: info.resource };
}

/** Runs steps one after another; each calls next() when its callbacks are done. */
export function forEachSeq<T>(
  items: readonly T[],
  step: (item: T, next: () => void) => void,
  done: () => void,
): void {
  let index = 0;
  const run = (): void => {
    if (index >= items.length) {
      done();
      return;
    }
    const item = items[index++]!;
    step(item, run);
  };
  run();
}
