// kubectl's public face: the entry point, the transport contract the API server implements, and
// the pure printers other parts of the book reuse (tables, ages, YAML/JSON, JSONPath, describe).
export { runKubectl } from './kubectl.ts';
export { adminKubeconfig, type Kubeconfig } from './kubeconfig.ts';
export type { KubectlIo, KubectlResult } from './context.ts';
export type {
  GroupVersionResource,
  Impersonation,
  KubeRequest,
  KubeResponse,
  KubeTransport,
  ObjectList,
  RawRequest,
  RequestQuery,
  Verb,
  WatchEvent,
} from './transport.ts';
export { parseArgs } from './args.ts';
export type { ParsedArgs, ParseResult } from './args.ts';
export { shellSplit as kubectlShellSplit } from './shell.ts';
export { klogLine, type KlogSeverity } from './klog.ts';
export { humanDuration, shortHumanDuration, translateTimestampSince } from './duration.ts';
export { podSummary } from './printers/pod.ts';
export { nodeStatus, nodeRoles, tableFor } from './printers/kinds.ts';
export { printTables } from './printers/table.ts';
export type { TableGroup, TableOptions } from './printers/table.ts';
export { toYAML } from './printers/yaml-emit.ts';
export { toJSON, compactJSON } from './printers/json-emit.ts';
export { parseJSONPath, executeJSONPath, JSONPathError } from './printers/jsonpath.ts';
export { alignTabs } from './printers/tabwriter.ts';
export { formatStatusError, operationLine, deletedLine } from './errors.ts';
export { describeObject } from './commands/describe.ts';
export { deploymentRolloutStatus } from './commands/rollout.ts';
export { parseManifests } from './manifests.ts';
