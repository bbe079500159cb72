// What a container's processes find inside it (an exec'd command, or busybox's own command): the
// programs its image ships and what they print. The first word is looked up on
// the container's PATH; a missing program fails the exec before anything runs, with runc's
// "executable file not found in $PATH" text. The programs are small and honest about their scope:
// echo, cat of the files the kubelet and runtime put in every container, env/printenv, hostname,
// true/false, sleep, and the image's shell running `-c` scripts (words, quotes, $VARS, `;`, `&&`,
// `||`, `exit N`). Each shell reports an unknown command as that shell does (dash, bash, busybox).
// curl (the nginx images), busybox's wget and nslookup connect through the pod's network namespace.
// Programs the real image has but this simulation does not run (ls, ps...) say so and exit
// 126, rather than pretending the image lacks them. Kubernetes' etcd image is distroless plus a
// static bash as /bin/sh (cluster/images/etcd/Dockerfile) and the etcd binaries: its etcdctl talks
// to etcd, which is not the runtime's business, so whoever runs the etcd container runs it
// (hostProgramCall finds such a call, the cluster's static pods run it).
import { curl, nslookup, wget } from './net-tools.ts';

/** Which userland an image has (decides its programs and its shell's error texts). */
export type Userland = 'debian' | 'alpine' | 'busybox' | 'distroless' | 'etcd';

/** What the container's process sees: set up by the kubelet (env, /etc files) and the runtime (hostname). */
export interface ExecEnvironment {
  hostname: string;
  /** The process environment, in order. */
  env: readonly (readonly [string, string])[];
  /** Files the kubelet mounts into every container (/etc/hosts, /etc/resolv.conf, /etc/hostname). */
  files: Readonly<Record<string, string>>;
  /** Directories mounted from volumes, whose every file is in `files` (what `ls` may list). */
  mountDirs?: readonly string[];
  /** The pod's network namespace (absent for host-network pods, whose programs here cannot dial). */
  network?: PodNetworkAccess;
  /** What the process reads on stdin (kubectl exec -i), all of it; nothing when absent. */
  stdin?: string;
}

/** Connections and name lookups from inside the pod, through the cluster's simulated network. */
export interface PodNetworkAccess {
  /** The resolver's nameserver (resolv.conf). */
  readonly nameserver: string;
  /** HTTP GET / of host:port: the body and the address connected to, or why no connection was made. */
  httpGet(host: string, port: number): HttpGetResult;
  /** The resolver's answer for a name (search list applied), or NXDOMAIN / no answer. */
  lookup(name: string): { ok: true; name: string; addresses: string[] } | { ok: false; timedOut: boolean };
}

export type HttpGetResult =
  | { ok: true; body: string; address: string }
  | { ok: false; failure: 'resolve' | 'refused' | 'timeout' | 'unreachable'; address?: string };

/** A command that ran: its output and exit code, and how long it took on the simulated clock. */
export interface ExecOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  durationMs: number;
  /**
   * When each piece of output was written, in ms after the start (a script's `sleep` delays what
   * follows it); absent when everything was written at the start.
   */
  writes?: { atMs: number; text: string }[];
}

/** runc could not start the process (the exec fails; nothing ran). */
export interface ExecStartFailure {
  startError: string;
}

export type ExecResult = ExecOutput | ExecStartFailure;

const COMMON = ['sh', 'echo', 'cat', 'ls', 'env', 'printenv', 'hostname', 'true', 'false', 'sleep'];
/** busybox applets that talk to the network. */
const BUSYBOX_NET = ['wget', 'nslookup'];

/** The programs on each userland's PATH that this simulation runs. */
const PROGRAMS: Record<Userland, ReadonlySet<string>> = {
  debian: new Set([...COMMON, 'bash']),
  alpine: new Set([...COMMON, ...BUSYBOX_NET]),
  busybox: new Set([...COMMON, ...BUSYBOX_NET]),
  distroless: new Set(),
  etcd: new Set(['sh']),
};

/** Commands every shell runs itself (dash, bash and busybox ash have them built in). */
const SHELL_BUILTINS: ReadonlySet<string> = new Set(['echo', 'true', 'false']);

/**
 * Programs an image ships whose work is outside the container runtime (etcdctl dials etcd): the
 * runtime finds the call (hostProgramCall) and leaves it to the container's owner.
 */
const HOST_PROGRAMS: Record<Userland, ReadonlySet<string>> = {
  debian: new Set(), alpine: new Set(), busybox: new Set(), distroless: new Set(),
  etcd: new Set(['etcdctl', 'etcdutl']),
};

/**
 * Programs the real images have that this simulation does not run (there is no file tree or
 * process table to show): they answer that plainly instead of pretending the image lacks them.
 */
const UNSIMULATED: Record<Userland, ReadonlySet<string>> = {
  debian: new Set(['ps', 'date', 'id', 'uname']),
  alpine: new Set(['ps', 'date', 'id', 'uname']),
  busybox: new Set(['ps', 'date', 'id', 'uname']),
  distroless: new Set(),
  etcd: new Set(['etcd', 'cp', 'migrate', 'migrate-if-needed.sh']),
};

/** Exit code and text of a program the image has but the simulation does not run. */
const UNSIMULATED_EXIT = 126;
const unsimulated = (name: string): string => `${name}: present in this image, but not simulated by Inside the Control Plane\n`;
/** A host program reached where its owner cannot run it (inside a longer script, or with no owner). */
const hostOnly = (name: string): string => `${name}: runs here only as the container's one command (kubectl exec POD -- ${name} ...), not inside a longer script\n`;

/** The userland of an image by its fully qualified reference. */
export function userlandOf(ref: string): Userland {
  const repo = ref.replace(/[:@][^/]*$/, '');
  const tag = ref.slice(repo.length + 1);
  if (repo === 'docker.io/library/busybox' || repo.startsWith('ghcr.io/inside-cp/')) return 'busybox';
  if (repo.startsWith('docker.io/library/')) return tag.includes('alpine') ? 'alpine' : 'debian';
  if (repo === 'registry.k8s.io/e2e-test-images/agnhost') return 'alpine';
  if (repo === 'registry.k8s.io/etcd') return 'etcd';
  // registry.k8s.io images (pause, the control plane, kube-proxy's distroless base, CoreDNS)
  // and kindnetd ship no shell
  return 'distroless';
}

/** Programs one image adds to its userland's (the nginx images ship curl). */
export function extraProgramsOf(ref: string): ReadonlySet<string> {
  return ref.startsWith('docker.io/library/nginx:') || ref.startsWith('docker.io/library/nginx@') ? new Set(['curl']) : new Set();
}

/** The error text of a program runc cannot find (OCI runtime exec failed ... : unknown). */
function notFound(program: string): string {
  const what = program.includes('/') ? `stat ${program}: no such file or directory` : 'executable file not found in $PATH';
  return `OCI runtime exec failed: exec failed: unable to start container process: exec: "${program}": ${what}: unknown`;
}

/**
 * A call of one of the image's host programs (HOST_PROGRAMS): argv itself, or a shell running
 * just that one command (`sh -c "ETCDCTL_API=3 etcdctl member list"`), with the variables the
 * command line assigns. Undefined for anything else (execInUserland runs it).
 */
export function hostProgramCall(userland: Userland, argv: readonly string[]): { argv: string[]; assignments: [string, string][] } | undefined {
  const programOf = (words: readonly string[]): string => (words[0] ?? '').replace(/^\/(usr\/)?(local\/)?s?bin\//, '');
  if (HOST_PROGRAMS[userland].has(programOf(argv))) return { argv: [programOf(argv), ...argv.slice(1)], assignments: [] };
  if (programOf(argv) !== 'sh' || argv[1] !== '-c' || argv[2] === undefined) return undefined;
  const commands = parseScript(argv[2], new Map()).filter((c) => c.words.length > 0);
  if (commands.length !== 1) return undefined;
  const words = commands[0]!.words;
  const assignments: [string, string][] = [];
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
    const w = words.shift()!;
    assignments.push([w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]);
  }
  return HOST_PROGRAMS[userland].has(programOf(words)) ? { argv: [programOf(words), ...words.slice(1)], assignments } : undefined;
}

/** Runs argv in a container of the given userland (CRI Exec without stdin). */
export function execInUserland(userland: Userland, argv: readonly string[], env: ExecEnvironment, extra: ReadonlySet<string> = new Set()): ExecResult {
  const program = argv[0] ?? '';
  const name = program.replace(/^\/(usr\/)?(local\/)?s?bin\//, '');
  const out: ExecOutput = { stdout: '', stderr: '', exitCode: 0, durationMs: 0 };
  if (UNSIMULATED[userland].has(name)) return { ...out, stderr: unsimulated(name), exitCode: UNSIMULATED_EXIT };
  if (HOST_PROGRAMS[userland].has(name)) return { ...out, stderr: hostOnly(name), exitCode: UNSIMULATED_EXIT };
  if (!PROGRAMS[userland].has(name) && !extra.has(name)) return { startError: notFound(program) };
  runProgram({ userland, extra }, name, argv.slice(1), env, out);
  return out;
}

/** A userland with the image's own additions. */
interface Image {
  userland: Userland;
  extra: ReadonlySet<string>;
}

const has = (image: Image, name: string): boolean => PROGRAMS[image.userland].has(name) || image.extra.has(name);
/**
 * ls of one path inside a directory volume mount (all of whose files the container's environment
 * holds): a file prints its name, a directory its entries in byte order, one per line (the output
 * is not a terminal). Anything else (the image's own tree, several paths, options other than -1)
 * is outside what the simulation knows, and says so.
 */
function listDirectory(args: readonly string[], env: ExecEnvironment, out: ExecOutput, image: Userland): void {
  const paths = args.filter((a) => a !== '-1');
  const path = paths[0]?.replace(/\/+$/, '') ?? '';
  if (paths.length !== 1 || args.some((a) => a.startsWith('-') && a !== '-1') || path === '') {
    out.stderr += unsimulated('ls');
    out.exitCode = UNSIMULATED_EXIT;
    return;
  }
  if (env.files[path] !== undefined) {
    out.stdout += `${paths[0]}\n`;
    return;
  }
  const known = (env.mountDirs ?? []).some((dir) => path === dir || path.startsWith(`${dir}/`));
  const entries = new Set<string>();
  if (known) for (const file of Object.keys(env.files)) if (file.startsWith(`${path}/`)) entries.add(file.slice(path.length + 1).split('/')[0]!);
  if (!known) {
    out.stderr += unsimulated('ls');
    out.exitCode = UNSIMULATED_EXIT;
    return;
  }
  if (entries.size === 0 && !(env.mountDirs ?? []).includes(path)) {
    out.stderr += userlandNoSuchPath(paths[0]!, image);
    out.exitCode = image === 'debian' ? 2 : 1;
    return;
  }
  out.stdout += [...entries].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((e) => `${e}\n`).join('');
}

/** ls of a path that does not exist: coreutils' and busybox's wording. */
function userlandNoSuchPath(path: string, userland: Userland): string {
  return userland === 'debian' ? `ls: cannot access '${path}': No such file or directory\n` : `ls: ${path}: No such file or directory\n`;
}

/** Whether a shell of this image finds the command (its builtins, then the image's programs). */
const shellFinds = (image: Image, name: string): boolean => SHELL_BUILTINS.has(name) || has(image, name);

function runProgram(image: Image, name: string, args: readonly string[], env: ExecEnvironment, out: ExecOutput): void {
  const userland = image.userland;
  switch (name) {
    case 'echo': {
      const noNewline = args[0] === '-n';
      out.stdout += (noNewline ? args.slice(1) : args).join(' ') + (noNewline ? '' : '\n');
      return;
    }
    case 'cat':
      // no file, or "-": stdin
      if (args.length === 0) out.stdout += env.stdin ?? '';
      for (const path of args) {
        if (path === '-') {
          out.stdout += env.stdin ?? '';
          continue;
        }
        const text = env.files[path];
        if (text !== undefined) out.stdout += text;
        else {
          out.stderr += userland === 'debian' ? `cat: ${path}: No such file or directory\n` : `cat: can't open '${path}': No such file or directory\n`;
          out.exitCode = 1;
        }
      }
      return;
    case 'ls':
      return listDirectory(args, env, out, userland);
    case 'env':
      for (const [k, v] of env.env) out.stdout += `${k}=${v}\n`;
      return;
    case 'printenv': {
      if (args.length === 0) return runProgram(image, 'env', [], env, out);
      let missing = false;
      for (const key of args) {
        const found = env.env.find(([k]) => k === key);
        if (found) out.stdout += `${found[1]}\n`;
        else missing = true;
      }
      out.exitCode = missing ? 1 : 0;
      return;
    }
    case 'hostname':
      out.stdout += `${env.hostname}\n`;
      return;
    case 'true':
      return;
    case 'false':
      out.exitCode = 1;
      return;
    case 'sleep': {
      const seconds = Number((args[0] ?? '').replace(/s$/, ''));
      if (args.length === 0) {
        out.stderr += userland === 'debian' ? `sleep: missing operand\nTry 'sleep --help' for more information.\n` : 'Usage: sleep [N]...\n';
        out.exitCode = 1;
        return;
      }
      if (!Number.isFinite(seconds) || seconds < 0) {
        out.stderr += userland === 'debian' ? `sleep: invalid time interval '${args[0]}'\nTry 'sleep --help' for more information.\n` : `sleep: invalid number '${args[0]}'\n`;
        out.exitCode = 1;
        return;
      }
      out.durationMs += Math.round(seconds * 1000);
      return;
    }
    case 'sh':
    case 'bash':
      return runShell(image, name, args, env, out);
    case 'curl':
      return curl(args, env, out);
    case 'wget':
      return wget(args, env, out);
    case 'nslookup':
      return nslookup(args, env, out);
  }
}

/** `sh -c SCRIPT` / `bash -c SCRIPT`; a shell with no script runs what it reads on stdin. */
function runShell(image: Image, shell: string, args: readonly string[], env: ExecEnvironment, out: ExecOutput): void {
  const userland = image.userland;
  if (args[0] !== '-c' && args[0] !== '-s' && args.length > 0 && !args[0]!.startsWith('-')) return;
  const script = args[0] === '-c' ? args[1] : (env.stdin ?? '');
  // the script's commands share the shell's stdin, which the shell itself consumed
  if (args[0] !== '-c') env = { ...env, stdin: '' };
  if (script === undefined) {
    out.stderr += shell === 'bash' ? 'bash: -c: option requires an argument\n' : `${shell}: 0: -c requires an argument\n`;
    out.exitCode = 2;
    return;
  }
  const vars = new Map(env.env);
  let last = 0;
  for (const { words, op } of parseScript(script, vars)) {
    // `a && b` runs b only after a succeeded; `a || b` only after it failed
    if ((op === '&&' && last !== 0) || (op === '||' && last === 0)) continue;
    if (words.length === 0) continue;
    const [cmd, ...rest] = words as [string, ...string[]];
    if (cmd === 'exit') {
      out.exitCode = rest[0] === undefined ? last : Number(rest[0]) & 0xff;
      return;
    }
    const name = cmd.replace(/^\/(usr\/)?(local\/)?s?bin\//, '');
    const notRun = UNSIMULATED[userland].has(name) ? unsimulated(name) : HOST_PROGRAMS[userland].has(name) ? hostOnly(name) : undefined;
    if (notRun !== undefined) {
      (out.writes ??= []).push({ atMs: out.durationMs, text: notRun });
      out.stderr += notRun;
      last = UNSIMULATED_EXIT;
      continue;
    }
    if (!shellFinds(image, name)) {
      (out.writes ??= []).push({ atMs: out.durationMs, text: commandNotFound(userland, shell, cmd) });
      out.stderr += commandNotFound(userland, shell, cmd);
      last = 127;
      continue;
    }
    const step: ExecOutput = { stdout: '', stderr: '', exitCode: 0, durationMs: 0 };
    runProgram(image, name, rest, env, step);
    if (step.stdout + step.stderr !== '') (out.writes ??= []).push({ atMs: out.durationMs, text: step.stdout + step.stderr });
    out.stdout += step.stdout;
    out.stderr += step.stderr;
    out.durationMs += step.durationMs;
    last = step.exitCode;
  }
  out.exitCode = last;
}

/** How each shell says a command is not there (dash: "sh: 1: x: not found", bash, busybox ash). */
function commandNotFound(userland: Userland, shell: string, cmd: string): string {
  if (shell === 'bash') return `bash: line 1: ${cmd}: command not found\n`;
  // the etcd image's /bin/sh is bash-static, which names itself by the name it was run as
  if (userland === 'etcd') return `sh: line 1: ${cmd}: command not found\n`;
  if (userland === 'debian') return `sh: 1: ${cmd}: not found\n`;
  return `sh: ${cmd}: not found\n`;
}

/** A script as commands, each with the operator before it (';' for the first). */
function parseScript(script: string, vars: ReadonlyMap<string, string>): { words: string[]; op: ';' | '&&' | '||' }[] {
  const commands: { words: string[]; op: ';' | '&&' | '||' }[] = [];
  let current: { words: string[]; op: ';' | '&&' | '||' } = { words: [], op: ';' };
  let word: string | undefined;
  const endWord = (): void => {
    if (word !== undefined) current.words.push(word);
    word = undefined;
  };
  const endCommand = (op: ';' | '&&' | '||'): void => {
    endWord();
    commands.push(current);
    current = { words: [], op };
  };
  const expand = (from: number): [string, number] => {
    const braced = script[from] === '{';
    const m = (braced ? /^\{([A-Za-z_][A-Za-z0-9_]*)\}/ : /^([A-Za-z_][A-Za-z0-9_]*)/).exec(script.slice(from));
    if (!m) return ['$', from];
    return [vars.get(m[1]!) ?? '', from + m[0].length];
  };
  for (let i = 0; i < script.length; ) {
    const ch = script[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (ch === '\n') endCommand(';');
      else endWord();
      i++;
    } else if (ch === ';') {
      endCommand(';');
      i++;
    } else if (script.startsWith('&&', i) || script.startsWith('||', i)) {
      endCommand(script.slice(i, i + 2) as '&&' | '||');
      i += 2;
    } else if (ch === "'") {
      const end = script.indexOf("'", i + 1);
      const stop = end < 0 ? script.length : end;
      word = (word ?? '') + script.slice(i + 1, stop);
      i = stop + 1;
    } else if (ch === '"') {
      word ??= '';
      i++;
      while (i < script.length && script[i] !== '"') {
        if (script[i] === '$') {
          const [text, next] = expand(i + 1);
          word += text;
          i = next;
        } else if (script[i] === '\\' && i + 1 < script.length) {
          word += script[i + 1];
          i += 2;
        } else word += script[i++];
      }
      i++;
    } else if (ch === '$') {
      const [text, next] = expand(i + 1);
      word = (word ?? '') + text;
      i = next;
    } else if (ch === '\\' && i + 1 < script.length) {
      word = (word ?? '') + script[i + 1];
      i += 2;
    } else {
      word = (word ?? '') + ch;
      i++;
    }
  }
  endCommand(';');
  return commands;
}
