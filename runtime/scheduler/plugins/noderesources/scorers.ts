// The three scoring strategies of NodeResourcesFit and the BalancedAllocation scorer, as pure
// functions over parallel arrays (requested[i], allocatable[i]) per configured resource.
// mirrors pkg/scheduler/framework/plugins/noderesources/least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go, balanced_allocation.go and plugins/helper/shape_score.go.
import { MAX_NODE_SCORE } from '../../framework/interface.ts';

/** config.ResourceSpec: a resource name and its weight. */
export interface ResourceSpec {
  name: string;
  weight: number;
}

export type Scorer = (requested: readonly number[], allocatable: readonly number[]) => number;

/** (capacity - requested) * 100 / capacity, 0 when over capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** requested * 100 / capacity, with requested capped at capacity. */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  return Math.trunc((Math.min(requested, capacity) * MAX_NODE_SCORE) / capacity);
}

/** Weighted mean of per-resource scores (integer division), skipping resources with no allocatable. */
function weightedMean(
  resources: readonly ResourceSpec[],
  per: (req: number, cap: number) => number,
): Scorer {
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    resources.forEach((r, i) => {
      const cap = allocatable[i] ?? 0;
      if (cap === 0) return;
      nodeScore += per(requested[i] ?? 0, cap) * r.weight;
      weightSum += r.weight;
    });
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}

export const leastAllocatedScorer = (resources: readonly ResourceSpec[]): Scorer =>
  weightedMean(resources, leastRequestedScore);

export const mostAllocatedScorer = (resources: readonly ResourceSpec[]): Scorer =>
  weightedMean(resources, mostRequestedScore);

/** A point of the utilization-to-score shape, score already in 0..MAX_NODE_SCORE. */
export interface FunctionShapePoint {
  utilization: number;
  score: number;
}

/** helper.BuildBrokenLinearFunction: piecewise-linear interpolation with Go's truncating division. */
export function brokenLinearFunction(shape: readonly FunctionShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      const cur = shape[i]!;
      if (p <= cur.utilization) {
        if (i === 0) return shape[0]!.score;
        const prev = shape[i - 1]!;
        return (
          prev.score +
          Math.trunc(
            ((cur.score - prev.score) * (p - prev.utilization)) /
              (cur.utilization - prev.utilization),
          )
        );
      }
    }
    return shape[shape.length - 1]!.score;
  };
}

const MAX_UTILIZATION = 100;
/** config.MaxCustomPriorityScore: the shape's scores are 0..10, scaled by 100 / 10. */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;

/** requested * 100 / capacity clamped to [0, 100] (scaledUtilization). */
function scaledUtilization(requested: number, capacity: number): number {
  if (capacity <= 0 || requested <= 0) return 0;
  if (requested >= capacity) return MAX_UTILIZATION;
  return Math.trunc((requested * MAX_UTILIZATION) / capacity);
}

/**
 * RequestedToCapacityRatio: each resource's utilization mapped through the shape; resources
 * scoring 0 are left out of the mean, which is rounded (not truncated).
 */
export function requestedToCapacityRatioScorer(
  resources: readonly ResourceSpec[],
  shape: readonly { utilization: number; score: number }[],
): Scorer {
  const scaled = shape.map((p) => ({
    utilization: p.utilization,
    score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
  }));
  const raw = brokenLinearFunction(scaled);
  const perResource = (req: number, cap: number): number =>
    cap === 0 || req > cap ? raw(MAX_UTILIZATION) : raw(scaledUtilization(req, cap));
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    resources.forEach((r, i) => {
      const cap = allocatable[i] ?? 0;
      if (cap === 0) return;
      const s = perResource(requested[i] ?? 0, cap);
      if (s > 0) {
        nodeScore += s * r.weight;
        weightSum += r.weight;
      }
    });
    return weightSum === 0 ? 0 : Math.round(nodeScore / weightSum);
  };
}

/** BalancedAllocation: 100 * (1 - standard deviation of the requested/allocatable fractions). */
export function balancedResourceScorer(
  requested: readonly number[],
  allocatable: readonly number[],
): number {
  const fractions: number[] = [];
  let total = 0;
  requested.forEach((req, i) => {
    const cap = allocatable[i] ?? 0;
    if (cap === 0) return;
    const f = Math.min(req / cap, 1);
    total += f;
    fractions.push(f);
  });
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    const sum = fractions.reduce((acc, f) => acc + (f - mean) * (f - mean), 0);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
