// runtime/client/leaderelection: client-go tools/leaderelection over a coordination.k8s.io/v1 Lease.
export {
  LeaderElector,
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  JITTER_FACTOR,
  type LeaderCallbacks,
  type LeaderElectionConfig,
} from './elector.ts';
