// The public face of etcdctl: one command line in, { stdout, stderr, exitCode } out (via callback).
export { runEtcdctl } from './etcdctl.ts';
export type { EtcdctlFiles, EtcdctlIo, EtcdctlResult } from './context.ts';
export { shellSplit } from './argv.ts';
export { humanizeBytes, renderTable } from './format.ts';
export { ETCDCTL_VERSION } from './commands-cluster.ts';
