// kubectl exec (POD | TYPE/NAME) [-c CONTAINER] -- COMMAND [args...]: the pod (a workload's first
// pod for TYPE/NAME), its default container, then POST pods/{name}/exec; the remote command's
// stdout and stderr are printed and its exit code becomes kubectl's ("command terminated with exit
// code N"). -i sends the terminal's input (all of it, as `< file` would) and -t finds no terminal. mirrors staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go and client-go's
// remotecommand (errorDecoderV4) and spdy round tripper ("unable to upgrade connection").
import { isExecStreams, lookupResource, type Pod } from '../../../api/index.ts';
import { flagBool, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { defaultContainer, firstPodOf } from './attachable-pod.ts';

const DEPRECATED = 'kubectl exec [POD] [COMMAND] is DEPRECATED and will be removed in a future version. Use kubectl exec [POD] -- [COMMAND] instead.\n';

export function runExec(ctx: Ctx, done: () => void): void {
  const quiet = flagBool(ctx.args, 'quiet');
  const args = ctx.args.positionals;
  const dash = ctx.args.argsLenAtDash ?? -1;
  // Complete: the resource is the first word unless "--" came first; the command follows "--"
  const resourceName = args.length > 0 && dash !== 0 ? args[0]! : '';
  let command: string[] = [];
  if (dash > -1) command = args.slice(dash);
  else if (args.length > 1) {
    if (!quiet) ctx.stderr += DEPRECATED;
    command = args.slice(1);
  }
  // Validate
  if (resourceName === '') return fail(ctx, 'pod, type/name or --filename must be specified', done);
  if (command.length === 0) return fail(ctx, 'you must specify at least one command for the container', done);
  const slash = resourceName.indexOf('/');
  const kind = slash < 0 ? undefined : lookupResource(resourceName.slice(0, slash));
  if (slash >= 0 && !kind) {
    ctx.error(`the server doesn't have a resource type "${resourceName.slice(0, slash)}"`);
    return done();
  }
  const name = slash < 0 ? resourceName : resourceName.slice(slash + 1);
  if (kind && kind.kind !== 'Pod') {
    firstPodOf(ctx, kind, name, (podName) => (podName === undefined ? done() : execInPod(ctx, podName, command, quiet, done)));
    return;
  }
  execInPod(ctx, name, command, quiet, done);
}

function fail(ctx: Ctx, message: string, done: () => void): void {
  ctx.error(message);
  done();
}

function execInPod(ctx: Ctx, podName: string, command: string[], quiet: boolean, done: () => void): void {
  const pods = gvr(lookupResource('pods')!);
  ctx.request({ verb: 'get', resource: pods, namespace: ctx.namespace, name: podName }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    const pod = res.body as Pod;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return fail(ctx, `cannot exec into a container in a completed pod; current phase is ${phase}`, done);
    const container = flagString(ctx.args, 'container') || defaultContainer(ctx, pod, quiet);
    const stdin = flagBool(ctx.args, 'stdin');
    // SetupTTY: -t needs -i, and a terminal to read from, which this one is not
    if (stdin && flagBool(ctx.args, 'tty') && !quiet) ctx.stderr += 'Unable to use a TTY - input is not a terminal or the right kind of file\n';
    const query = { container, command, stdin, stdout: true, stderr: true, tty: false };
    // -i sends what this terminal was given as input (`kubectl exec -i pod -- sh < script`)
    const body = stdin && ctx.io.stdin !== undefined ? { body: { stdin: ctx.io.stdin } } : {};
    ctx.request({ verb: 'create', resource: pods, namespace: ctx.namespace, name: podName, subresource: 'exec', query, ...body }, (session) => {
      if (!session.ok) {
        // a Status body is the API server's own error; any other body is the kubelet's refusal
        if (session.text !== undefined) ctx.error(`unable to upgrade connection: ${session.text}`);
        else ctx.statusError(session.status);
        return done();
      }
      if (!isExecStreams(session.body)) return fail(ctx, 'error stream protocol error: unknown error', done);
      const { stdout, stderr, status } = session.body;
      ctx.out(stdout);
      ctx.stderr += stderr;
      if (status.status === 'Failure') {
        const code = status.reason === 'NonZeroExitCode' ? Number(status.details?.causes.find((c) => c.reason === 'ExitCode')?.message) : NaN;
        if (Number.isInteger(code)) {
          // CheckErr on a CodeExitError: its text as is, and its code as kubectl's
          ctx.stderr += `command terminated with exit code ${code}\n`;
          ctx.failed = true;
          ctx.exitCode = code;
        } else ctx.error(status.message ?? 'error stream protocol error: unknown error');
      }
      done();
    });
  });
}
