// runtime/scheduler: kube-scheduler, its public face. The framework's extension points live in
// framework/; plugins and the scheduling queue will live beside it.
export * from './framework/index.ts';
