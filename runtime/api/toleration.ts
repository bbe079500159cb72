// Whether a toleration tolerates a taint: the one rule the scheduler's TaintToleration plugin, the
// DaemonSet controller and taint-based eviction all apply.
// mirrors staging/src/k8s.io/api/core/v1/toleration.go (Toleration.ToleratesTaint): an empty effect
// or key matches any; operator "" or Equal compares values, Exists matches any value, and an unknown
// operator tolerates nothing.
import type { Taint, Toleration } from './types/index.ts';

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
