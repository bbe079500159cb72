// The "try this" prompts under a live cluster are commands a chapter asks the reader to type. While
// the site builds, LiveCluster.astro plays each one on the chapter's own cluster, as a reader who
// follows the list in order would: a prompt that no longer runs (a renamed flag, a file that is not
// in the terminal, a resource the scenario never creates) fails the build, like a Session whose
// command changed its exit code.
//
// A prompt's note may ask the reader to act first ("cut cp-3's member off, then ..."): `before`
// holds those actions as scenario steps (waits and faults), played before the command, so the
// check runs the command in the state the note describes. `expectExit` is for a prompt whose point
// is a failure (a write without quorum).
import type { Cluster } from '../../../runtime/index.ts';
import { complete } from '../live/completion.ts';
import { playScenario, playStep, ScenarioStepError } from './play.ts';
import type { Scenario, ScenarioStep } from './types.ts';

/** A "try this" prompt as a chapter writes it. */
export type TryThisPrompt = string | TryThisItem;

export interface TryThisItem {
  /** The command line, as the reader types it. */
  run: string;
  /** What to look at, or what to do first (inline `code` allowed). */
  note?: string;
  /** What the note asks the reader to do before running the command (waits and faults). */
  before?: Exclude<ScenarioStep, string | { run: string }>[];
  /** The exit code the command ends with when the reader follows the list (default 0). */
  expectExit?: number;
  /** Text the command's output must contain when the reader follows the list (what the note promises). */
  expect?: string;
  /** The command ends in the start of a name the reader completes with Tab (the first candidate is taken). */
  tab?: boolean;
}

/** The line as the terminal's Tab completes it from the cluster's current names (the first candidate if several). */
function completeWithTab(cluster: Cluster, line: string): string {
  const snapshot = cluster.snapshot();
  const names = { nodes: snapshot.nodes.map((n) => n.name), pods: snapshot.pods.map((p) => p.name) };
  const completion = complete(line, names);
  const word = line.split(/\s+/).at(-1) ?? '';
  const first = completion.candidates[0];
  const completed = first !== undefined ? line.slice(0, line.length - word.length) + first : completion.line.trimEnd();
  if (completed === line) throw new ScenarioStepError(`Tab completes nothing: no name starts with "${word}"`);
  return completed;
}

/**
 * Plays the scenario, then every prompt in order (its `before` steps, then the command).
 * Resolves when each command ended with its expected exit code; otherwise throws a
 * ScenarioStepError naming the prompt. `cluster` is returned for tests.
 */
export async function checkTryThis(title: string, scenario: Scenario, prompts: readonly TryThisPrompt[]): Promise<Cluster> {
  const { cluster } = await playScenario(scenario);
  for (const [index, prompt] of prompts.entries()) {
    const item: TryThisItem = typeof prompt === 'string' ? { run: prompt } : prompt;
    try {
      for (const step of item.before ?? []) await playStep(cluster, step, scenario.files ?? {});
      const line = item.tab ? completeWithTab(cluster, item.run) : item.run;
      const entry = await playStep(cluster, { run: line, ...(item.expectExit !== undefined ? { expectExit: item.expectExit } : {}) }, scenario.files ?? {});
      const printed = entry.kind === 'command' ? entry.stdout + entry.stderr : '';
      if (item.expect !== undefined && !printed.includes(item.expect)) {
        throw new ScenarioStepError(`the output does not contain "${item.expect}":\n${printed}`);
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ScenarioStepError(`live cluster "${title}", try-this prompt ${index + 1} ("${item.run}") does not run as the chapter says: ${why}`);
    }
  }
  return cluster;
}
