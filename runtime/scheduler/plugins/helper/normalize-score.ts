// mirrors pkg/scheduler/framework/plugins/helper/normalize_score.go (DefaultNormalizeScore):
// scales scores so the highest becomes maxPriority (integer division), optionally reversed so the
// lowest raw score wins. All zeros stay zero (or become maxPriority when reversed).
import type { NodeScore } from '../../framework/interface.ts';

export function defaultNormalizeScore(
  maxPriority: number,
  reverse: boolean,
  scores: readonly NodeScore[],
): NodeScore[] {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    return scores.map((s) => ({ name: s.name, score: reverse ? maxPriority : s.score }));
  }
  return scores.map((s) => {
    const scaled = Math.trunc((maxPriority * s.score) / maxCount);
    return { name: s.name, score: reverse ? maxPriority - scaled : scaled };
  });
}
