// Seeded fault schedules for the etcd layer: run, check, replay.
export { runEtcdSchedule, ETCD_REPLAY_HINT, type EtcdScheduleOptions, type EtcdScheduleResult } from './schedule.ts';
export { checkAckedWrites, checkConvergence, checkWatchStream } from './checks.ts';
