// Choosing one candidate node. mirrors SelectCandidate and pickOneNodeForPreemption in
// pkg/scheduler/framework/preemption/preemption.go: each criterion scores the nodes still tied and
// keeps the best; the first criterion that leaves one node decides. In order: fewest PDB
// violations, lowest highest-victim priority, smallest sum of victim priorities (each shifted by
// MaxInt32+1 so negative priorities cannot make more victims look cheaper), fewest victims, latest
// start of the highest-priority victims; then the first node left. Upstream's "first" comes from Go
// map iteration (effectively random); here it is the candidate order (PDB-respecting first, then
// from the random dry-run offset), so ties still move with the seed.
import type { Candidate } from './candidates.ts';
import { earliestStartOfHighestPriority } from './pod-order.ts';

const MAX_INT32_PLUS_ONE = 2 ** 31;

type ScoreFn = (c: Candidate) => number;

function scoreFunctions(nowMs: number): ScoreFn[] {
  return [
    (c) => -c.victims.numPDBViolations,
    (c) => -(c.victims.pods[0]?.priority ?? 0),
    (c) => -c.victims.pods.reduce((sum, p) => sum + p.priority + MAX_INT32_PLUS_ONE, 0),
    (c) => -c.victims.pods.length,
    (c) => earliestStartOfHighestPriority(c.victims.pods, nowMs) ?? -Infinity,
  ];
}

/** pickOneNodeForPreemption: the chosen node's name, '' when there is no candidate. */
export function pickOneNodeForPreemption(candidates: readonly Candidate[], nowMs: number): string {
  if (candidates.length === 0) return '';
  // a node that needs no eviction wins at once (pods left between filtering and preemption)
  const free = candidates.find((c) => c.victims.pods.length === 0);
  if (free) return free.name;
  let tied = [...candidates];
  for (const score of scoreFunctions(nowMs)) {
    let best = -Infinity;
    let kept: Candidate[] = [];
    for (const c of tied) {
      const s = score(c);
      if (s > best) {
        best = s;
        kept = [];
      }
      if (s === best) kept.push(c);
    }
    if (kept.length === 1) return kept[0]!.name;
    tied = kept;
  }
  return tied[0]!.name;
}

/** SelectCandidate: none, the only one, or the one pickOneNodeForPreemption names. */
export function selectCandidate(candidates: readonly Candidate[], nowMs: number): Candidate | null {
  if (candidates.length <= 1) return candidates[0] ?? null;
  const name = pickOneNodeForPreemption(candidates, nowMs);
  return candidates.find((c) => c.name === name) ?? candidates[0]!;
}
