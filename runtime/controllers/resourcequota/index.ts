export { ResourceQuotaController, QUOTA_RESYNC_PERIOD_MS, type ResourceQuotaControllerOptions } from './controller.ts';
export { calculateStatus, objectUsage, quotaCountsObject, sourceOf } from './usage.ts';
export { startResourceQuotaController } from './start.ts';
