// kubectl describe for a PodDisruptionBudget.
// mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go (PodDisruptionBudgetDescriber,
// describePodDisruptionBudgetV1): the budget (only one of Min available / Max unavailable), the
// selector ("<unset>" when nil), the controller's counts and the events.
import type { CoreEvent, PodDisruptionBudget } from '../../../api/index.ts';
import { formatLabelSelector } from '../../../api/index.ts';
import { writeEvents } from './events.ts';
import { LEVEL_0, LEVEL_2, PrefixWriter } from './writer.ts';

export function describePodDisruptionBudget(pdb: PodDisruptionBudget, events: readonly CoreEvent[], nowMs: number): string {
  const w = new PrefixWriter();
  const spec = pdb.spec ?? {};
  const status = pdb.status;
  w.write(LEVEL_0, `Name:\t${pdb.metadata.name ?? ''}\n`);
  w.write(LEVEL_0, `Namespace:\t${pdb.metadata.namespace ?? ''}\n`);
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) w.write(LEVEL_0, `Min available:\t${spec.minAvailable}\n`);
  else if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) w.write(LEVEL_0, `Max unavailable:\t${spec.maxUnavailable}\n`);
  w.write(LEVEL_0, `Selector:\t${spec.selector ? formatLabelSelector(spec.selector) : '<unset>'}\n`);
  w.write(LEVEL_0, 'Status:\n');
  w.write(LEVEL_2, `Allowed disruptions:\t${status?.disruptionsAllowed ?? 0}\n`);
  w.write(LEVEL_2, `Current:\t${status?.currentHealthy ?? 0}\n`);
  w.write(LEVEL_2, `Desired:\t${status?.desiredHealthy ?? 0}\n`);
  w.write(LEVEL_2, `Total:\t${status?.expectedPods ?? 0}\n`);
  writeEvents(w, events, nowMs);
  return w.toString();
}
