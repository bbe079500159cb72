export { DisruptionController, type DisruptionControllerOptions } from './controller.ts';
export { startDisruptionController, type DisruptionInformers } from './start.ts';
export {
  DELETION_TIMEOUT_MS, STALE_POD_DISRUPTION_TIMEOUT_MS, staleDisruptionCleanupInMs, buildDisruptedPodMap, conditionsAreUpToDate, countHealthyPods, expectedPodCount, expectedScale, failSafeStatus, finders,
  nextStatus, podsForBudget, type ControllerAndScale, type ControllerListers, type CountError, type DisruptedPodMap, type ExpectedCount,
  type HealthCounts, type ScaleFinder,
} from './budget.ts';
