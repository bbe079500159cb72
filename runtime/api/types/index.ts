// Object types of the simulated API, in their real groups and versions.
export type * from './meta.ts';
export type * from './status.ts';
export type * from './core.ts';
export type * from './quota.ts';
export type * from './apps.ts';
export type * from './discovery.ts';
export type * from './events.ts';
export type * from './coordination.ts';
export type * from './rbac.ts';
export type * from './scheduling.ts';
export type * from './policy.ts';
export type * from './networking.ts';
export { SIMULATION_EPOCH_MS, rfc3339, rfc3339Micro, rfc3339Nano, parseRFC3339 } from './time.ts';
