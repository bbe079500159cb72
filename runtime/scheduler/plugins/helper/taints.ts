// mirrors component-helpers/scheduling/corev1/helpers.go (TolerationsTolerateTaint,
// FindMatchingUntoleratedTaint), over api's toleratesTaint (core/v1 toleration.go).
import { toleratesTaint, type Taint, type Toleration } from '../../../api/index.ts';

export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[],
  taint: Taint,
): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint));
}

/** The first taint (in node order) that passes `include` and no toleration tolerates. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  include: (t: Taint) => boolean,
): Taint | undefined {
  return taints.find((taint) => include(taint) && !tolerationsTolerateTaint(tolerations, taint));
}
