// The linearizability checker (Porcupine's idea in TypeScript) and a key-value register model.
export type { Model, Operation } from './model.ts';
export type { CheckOptions, CheckResult, CheckVerdict } from './checker.ts';
export { checkOperations } from './checker.ts';
export type { KvInput, KvOutput } from './kv-model.ts';
export { kvModel } from './kv-model.ts';
