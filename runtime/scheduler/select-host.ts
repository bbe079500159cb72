// mirrors pkg/scheduler/schedule_one.go selectHost and numFeasibleNodesToFind.
import type { Intn, NodeScore } from './framework/interface.ts';

/** minFeasibleNodesToFind: below this many nodes, every node is filtered. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** minFeasibleNodesPercentageToFind: the adaptive percentage never drops below 5%. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** numberOfHighestScoredNodesToReport. */
export const NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT = 3;

/**
 * How many feasible nodes to find before the filters stop: all of them under 100 nodes;
 * otherwise percentageOfNodesToScore (0 or unset: the adaptive 50 - numAllNodes/125, at least 5%)
 * of the nodes, but never fewer than 100.
 */
export function numFeasibleNodesToFind(
  percentageOfNodesToScore: number | undefined,
  numAllNodes: number,
): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore ?? 0;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
      percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

// Go's container/heap over a max-heap of total scores, reproduced step for step so ties are
// visited in the same order as upstream for the same input order.
type Heap = NodeScore[];
const less = (h: Heap, i: number, j: number): boolean => h[i]!.score > h[j]!.score;
function swap(h: Heap, i: number, j: number): void {
  const t = h[i]!;
  h[i] = h[j]!;
  h[j] = t;
}
function down(h: Heap, i0: number, n: number): void {
  let i = i0;
  for (;;) {
    const j1 = 2 * i + 1;
    if (j1 >= n || j1 < 0) break;
    let j = j1;
    const j2 = j1 + 1;
    if (j2 < n && less(h, j2, j1)) j = j2;
    if (!less(h, j, i)) break;
    swap(h, i, j);
    i = j;
  }
}
function heapInit(h: Heap): void {
  const n = h.length;
  for (let i = Math.trunc(n / 2) - 1; i >= 0; i--) down(h, i, n);
}
function heapPop(h: Heap): NodeScore {
  const n = h.length - 1;
  swap(h, 0, n);
  down(h, 0, n);
  return h.pop()!;
}

/**
 * selectHost: the highest total score wins; ties are broken by reservoir sampling (the k-th tied
 * node replaces the pick with probability 1/k, drawn with intn), so each tied node is equally
 * likely. Also returns the top `count` nodes, the chosen one first. Null for an empty list.
 */
export function selectHost(
  totals: readonly NodeScore[],
  count: number,
  intn: Intn,
): { host: string; top: NodeScore[] } | null {
  if (totals.length === 0) return null;
  const h: Heap = totals.map((t) => ({ ...t }));
  heapInit(h);
  const sorted: NodeScore[] = [heapPop(h)];
  let cntOfMaxScore = 1;
  let selectedIndex = 0;
  while (h.length > 0) {
    const ns = heapPop(h);
    if (ns.score !== sorted[0]!.score && sorted.length === count) break;
    if (ns.score === sorted[0]!.score) {
      cntOfMaxScore++;
      if (intn(cntOfMaxScore) === 0) selectedIndex = cntOfMaxScore - 1;
    }
    sorted.push(ns);
  }
  if (selectedIndex !== 0) swap(sorted, 0, selectedIndex);
  return { host: sorted[0]!.name, top: sorted.slice(0, count) };
}
