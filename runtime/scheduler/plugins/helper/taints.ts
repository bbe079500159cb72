// mirrors staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint) and
// component-helpers/scheduling/corev1/helpers.go (TolerationsTolerateTaint,
// FindMatchingUntoleratedTaint).
import type { Taint, Toleration } from '../../../api/index.ts';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

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
