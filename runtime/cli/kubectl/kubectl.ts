// The kubectl entry point: one command line in, { stdout, stderr, exitCode } out by callback.
// Parsing errors never reach the cluster; each command talks to the API server only through
// the transport.
import { parseArgs, flagBool, flagString } from './args.ts';
import { contextCredentials } from './kubeconfig.ts';
import { runApiResources, runApiVersions } from './commands/api-resources.ts';
import { runApply, runCreateFromFiles } from './commands/apply.ts';
import { runDescribe } from './commands/describe.ts';
import { runGet } from './commands/get.ts';
import { runAuthCanI, runCreateGenerator } from './commands/misc.ts';
import { runExec } from './commands/exec.ts';
import { runLogs } from './commands/logs.ts';
import { runAuthWhoami } from './commands/auth-whoami.ts';
import { runDrain } from './commands/drain.ts';
import {
  runCordon,
  runDelete,
  runLabel,
  runPatch,
  runScale,
  runSetImage,
  runTaint,
} from './commands/mutate.ts';
import {
  runRolloutHistory,
  runRolloutRestart,
  runRolloutStatus,
  runRolloutUndo,
} from './commands/rollout.ts';
import { runAnnotate } from './commands/annotate.ts';
import { runExpose, runRun } from './commands/generate.ts';
import { runClusterInfo, runTop, runVersion } from './commands/info.ts';
import { runRolloutPause, runRolloutResume } from './commands/rollout-pause.ts';
import { runEvents } from './commands/events.ts';
import { runWait } from './commands/wait.ts';
import { runReplace } from './commands/replace.ts';
import {
  runConfigCurrentContext, runConfigGetClusters, runConfigGetContexts, runConfigGetUsers, runConfigDeleteContext, runConfigSetContext, runConfigSetCredentials, runConfigUseContext, runConfigView,
} from './commands/config.ts';
import { Ctx, validationDirective, type KubectlIo, type KubectlResult } from './context.ts';
import { clientError } from './errors.ts';
import { shellSplit } from './shell.ts';
import type { KubeTransport } from './transport.ts';

type Command = (ctx: Ctx, done: () => void) => void;

const COMMANDS: Record<string, Command> = {
  get: runGet,
  describe: runDescribe,
  apply: runApply,
  create: (ctx, done) =>
    ctx.args.flags.has('filename') ? runCreateFromFiles(ctx, done) : runCreateGenerator(ctx, done),
  delete: runDelete,
  replace: runReplace,
  scale: runScale,
  label: runLabel,
  patch: runPatch,
  taint: runTaint,
  cordon: (ctx, done) => runCordon(ctx, true, done),
  uncordon: (ctx, done) => runCordon(ctx, false, done),
  drain: runDrain,
  logs: runLogs,
  exec: runExec,
  events: runEvents,
  wait: runWait,
  'auth can-i': runAuthCanI,
  'auth whoami': runAuthWhoami,
  'api-resources': runApiResources,
  'api-versions': runApiVersions,
  'set image': runSetImage,
  'rollout status': runRolloutStatus,
  'rollout history': runRolloutHistory,
  'rollout undo': runRolloutUndo,
  'rollout restart': runRolloutRestart,
  'rollout pause': runRolloutPause,
  'rollout resume': runRolloutResume,
  annotate: runAnnotate,
  run: runRun,
  expose: runExpose,
  version: runVersion,
  'cluster-info': runClusterInfo,
  'top node': runTop,
  'top nodes': runTop,
  'top pod': runTop,
  'top pods': runTop,
  'config view': runConfigView,
  'config get-contexts': runConfigGetContexts,
  'config get-clusters': runConfigGetClusters,
  'config get-users': runConfigGetUsers,
  'config current-context': runConfigCurrentContext,
  'config use-context': runConfigUseContext,
  'config set-context': runConfigSetContext,
  'config set-credentials': runConfigSetCredentials,
  'config delete-context': runConfigDeleteContext,
};

/**
 * Runs one kubectl command line (a string, shell-split, or argv without "kubectl").
 * A leading "kubectl" word is accepted and dropped.
 */
export function runKubectl(
  argv: string | readonly string[],
  transport: KubeTransport,
  io: KubectlIo,
  done: (result: KubectlResult) => void,
): void {
  let words: readonly string[];
  if (typeof argv === 'string') {
    const split = shellSplit(argv);
    if (!split.ok) return done({ stdout: '', stderr: clientError(split.error), exitCode: 1 });
    words = split.words;
  } else words = argv;
  if (words[0] === 'kubectl') words = words.slice(1);
  const parsed = parseArgs(words);
  if (!parsed.ok) return done({ stdout: '', stderr: `${parsed.error}\n`, exitCode: 1 });
  const command = Object.hasOwn(COMMANDS, parsed.args.command) ? COMMANDS[parsed.args.command] : undefined;
  const ctx = new Ctx(parsed.args, transport, io);
  if (flagBool(parsed.args, 'help'))
    return done({
      stdout: `Usage: kubectl ${parsed.args.command} [options]\n`,
      stderr: '',
      exitCode: 0,
    });
  if (!command) {
    ctx.error(`"kubectl ${parsed.args.command}" is not available in this simulation`);
    return done({ stdout: '', stderr: ctx.stderr, exitCode: 1 });
  }
  // clientcmd validates the context before a command that talks to the cluster builds its client
  const creds = io.kubeconfig && !parsed.args.command.startsWith('config ') ? contextCredentials(io.kubeconfig, flagString(parsed.args, 'context')) : undefined;
  if (creds && !creds.ok) {
    ctx.error(creds.error);
    return done({ stdout: '', stderr: ctx.stderr, exitCode: 1 });
  }
  // Complete: cmdutil.GetValidationDirective refuses an unknown --validate before any request
  const validation = validationDirective(parsed.args);
  if (validation && 'error' in validation) {
    ctx.error(validation.error);
    return done({ stdout: '', stderr: ctx.stderr, exitCode: 1 });
  }
  let finished = false;
  command(ctx, () => {
    if (finished) throw new Error('invariant: a kubectl command finished twice');
    finished = true;
    done({ stdout: ctx.stdout, stderr: ctx.stderr, exitCode: ctx.exitCode ?? (ctx.failed ? 1 : 0) });
  });
}
