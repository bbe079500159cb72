// mirrors pkg/scheduler/framework/plugins/defaultbinder/default_binder.go. The real binder POSTs a
// Binding to pods/<name>/binding; here the algorithm is pure, so Bind only approves and the caller
// (the scheduler component, through client/) writes the binding.
import type { BindPlugin } from '../../framework/cycle.ts';
import { success } from '../../framework/status.ts';

export const NAME = 'DefaultBinder';

export function newDefaultBinder(): BindPlugin {
  return { name: NAME, bind: () => success() };
}
