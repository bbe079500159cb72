// What every etcdctl command gets: the client, the output buffers, the global flags, and a way to
// finish with an exit code. Exit codes mirror pkg/cobrautl/error.go.
import type { CallOptions, EtcdClient, EtcdError } from '../../etcd/index.ts';
import type { FlagValue } from './argv.ts';
import type { OutputFormat } from './printers.ts';

export const ExitSuccess = 0;
export const ExitError = 1;
export const ExitBadConnection = 2;
export const ExitInvalidInput = 3;
export const ExitBadFeature = 4;
export const ExitInterrupted = 5;
export const ExitBadArgs = 128;

/** Files by path (a Map will do; a container's view routes its mounts elsewhere). */
export interface EtcdctlFiles {
  get(path: string): string | undefined;
  set(path: string, data: string): unknown;
  has(path: string): boolean;
}

export interface EtcdctlIo {
  /** Standard input (for `put` without a value and for `txn`). */
  stdin?: string;
  /** The in-memory file system for `snapshot save|status|restore`. */
  files: EtcdctlFiles;
  /** How long `watch` and `lease keep-alive` listen before returning (simulated ms; default 2000). */
  watchWindowMs?: number;
  /** Endpoints used when --endpoints is not given (default: the client's first endpoint). */
  defaultEndpoints?: string[];
}

export interface EtcdctlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export class CommandContext {
  stdout = '';
  stderr = '';
  private finished = false;

  constructor(
    readonly client: EtcdClient,
    readonly io: EtcdctlIo,
    readonly flags: Map<string, FlagValue>,
    readonly positional: string[],
    readonly format: OutputFormat,
    readonly endpoints: string[],
    private readonly done: (r: EtcdctlResult) => void,
  ) {}

  bool(name: string): boolean {
    return this.flags.get(name) === true;
  }
  str(name: string, fallback = ''): string {
    const v = this.flags.get(name);
    return typeof v === 'string' ? v : fallback;
  }
  int(name: string, fallback = 0): number {
    const v = this.flags.get(name);
    return typeof v === 'number' ? v : fallback;
  }

  /** Per-request options: --command-timeout and the chosen endpoints. */
  call(endpoint?: string): CallOptions {
    const timeoutMs = this.int('command-timeout', 5000);
    return endpoint ? { timeoutMs, endpoint } : { timeoutMs, endpoints: this.endpoints };
  }

  out(text: string): void {
    this.stdout += text;
  }
  err(text: string): void {
    this.stderr += text;
  }

  finish(exitCode = ExitSuccess): void {
    if (this.finished) return;
    this.finished = true;
    this.done({ stdout: this.stdout, stderr: this.stderr, exitCode });
  }

  /** cobrautl.ExitWithError: "Error: <message>" on stderr. */
  fail(exitCode: number, message: string): void {
    this.err(`Error: ${message}\n`);
    this.finish(exitCode);
  }

  failWith(error: EtcdError): void {
    this.fail(ExitError, error.message);
  }
}
