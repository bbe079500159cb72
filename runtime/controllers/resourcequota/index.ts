export { ResourceQuotaController, QUOTA_RESYNC_PERIOD_MS, type ResourceQuotaControllerOptions } from './controller.ts';
export { calculateStatus, sourceOf } from './usage.ts';
export { startResourceQuotaController } from './start.ts';
