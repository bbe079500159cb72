// The scheduling framework: extension-point interfaces and their value types.
export { MAX_NODE_SCORE, MIN_NODE_SCORE } from './interface.ts';
export type {
  ContainerRequests,
  CycleState,
  Intn,
  NodeInfo,
  NodeScore,
  PodInfo,
  Resource,
  ResourceSpec,
  ScoreExtensions,
  ScorePlugin,
  Status,
  StatusCode,
  WeightedPluginScores,
} from './interface.ts';
