// Plays a scenario's steps on a simulated cluster: the one interpreter behind build-time transcripts
// (Session.astro) and the live widgets' worker, so a chapter's prepared state is the same in both.
import { createCluster, type Cluster } from '../../../runtime/index.ts';
import { formatDurationMs, parseDurationMs } from './duration.ts';
import type { CommandStep, Scenario, ScenarioStep, TranscriptEntry } from './types.ts';

/** A step that ended otherwise than its scenario said (the build fails with this message). */
export class ScenarioStepError extends Error {
  override name = 'ScenarioStepError';
}

export function commandStepOf(step: string | CommandStep): CommandStep {
  return typeof step === 'string' ? { run: step } : step;
}

/** Splits "kubectl get pods" into the program and its arguments; undefined for any other program. */
export function splitCommandLine(line: string): { program: 'kubectl' | 'etcdctl'; args: string } | undefined {
  const m = /^\s*(kubectl|etcdctl)(?:\s+([\s\S]*))?$/.exec(line);
  if (!m) return undefined;
  return { program: m[1] as 'kubectl' | 'etcdctl', args: (m[2] ?? '').trim() };
}

/** Runs one command line as the reader's terminal would (kubectl or etcdctl, with the scenario's files). */
export async function runCommandLine(
  cluster: Cluster, line: string, options: { stdin?: string; files?: Readonly<Record<string, string>> } = {},
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const parsed = splitCommandLine(line);
  if (!parsed) {
    const program = line.trim().split(/\s+/)[0] ?? '';
    return { stdout: '', stderr: `${program || 'sh'}: command not found (this terminal runs kubectl and etcdctl)\n`, exitCode: 127 };
  }
  const io = { ...(options.stdin !== undefined ? { stdin: options.stdin } : {}) };
  return parsed.program === 'kubectl'
    ? cluster.kubectl(parsed.args, { ...io, ...(options.files ? { files: options.files } : {}) })
    : cluster.etcdctl(parsed.args, io);
}

/** Applies one step; returns its transcript entry. Throws ScenarioStepError when a command's exit code is not the expected one. */
export async function playStep(cluster: Cluster, step: ScenarioStep, files: Readonly<Record<string, string>> = {}): Promise<TranscriptEntry> {
  const atMs = cluster.now();
  if (typeof step === 'string' || 'run' in step) {
    const command = commandStepOf(step);
    const result = await runCommandLine(cluster, command.run, { files, ...(command.stdin !== undefined ? { stdin: command.stdin } : {}) });
    const expected = command.expectExit ?? 0;
    if (result.exitCode !== expected) {
      throw new ScenarioStepError(
        `"${command.run}" exited ${result.exitCode}, the scenario expects ${expected}:\n${result.stderr || result.stdout}`,
      );
    }
    return { kind: 'command', line: command.run, ...result, atMs };
  }
  if ('wait' in step) {
    const ms = parseDurationMs(step.wait);
    await cluster.advance(ms);
    return { kind: 'wait', ms, atMs };
  }
  switch (step.fault) {
    case 'partition':
      await cluster.faults.partition(step.groups);
      return { kind: 'fault', text: `partition: ${step.groups.map((g) => `[${g.join(', ')}]`).join(' ')} cut off from the rest`, atMs };
    case 'heal':
      await cluster.faults.heal();
      return { kind: 'fault', text: 'the network heals', atMs };
    default:
      await cluster.faults[step.fault](step.target);
      return { kind: 'fault', text: `${FAULT_TEXT[step.fault]} ${step.target}`, atMs };
  }
}

const FAULT_TEXT = { stopNode: 'stop machine', startNode: 'start machine', stopComponent: 'stop', startComponent: 'start' } as const;

/** Whether a step is shown in a transcript. */
export function isShown(step: ScenarioStep): boolean {
  return typeof step === 'string' || !step.hidden;
}

/** Boots the scenario's cluster and plays its steps; returns the cluster and the shown transcript. */
export async function playScenario(scenario: Scenario): Promise<{ cluster: Cluster; transcript: TranscriptEntry[] }> {
  const cluster = createCluster({ seed: 1, ...scenario.cluster });
  const transcript: TranscriptEntry[] = [];
  for (const step of scenario.steps ?? []) {
    const entry = await playStep(cluster, step, scenario.files ?? {});
    if (isShown(step)) transcript.push(entry);
  }
  return { cluster, transcript };
}

/** The transcript as console text: "$ command", its output, and "# ..." lines for waits and faults. */
export function transcriptText(transcript: readonly TranscriptEntry[]): string {
  const out: string[] = [];
  for (const e of transcript) {
    if (e.kind === 'command') {
      out.push(`$ ${e.line}`);
      const printed = e.stdout + e.stderr;
      if (printed) out.push(printed.replace(/\n$/, ''));
    } else if (e.kind === 'wait') out.push(`# ... ${formatDurationMs(e.ms)} later`);
    else out.push(`# ${e.text}`);
  }
  return out.join('\n');
}
