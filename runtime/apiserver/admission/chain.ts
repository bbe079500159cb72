// The admission chain: every mutating plugin in order, then (after schema validation) every
// validating plugin in the same order; the first refusal stops the request.
// mirrors staging/src/k8s.io/apiserver/pkg/admission/chain.go and the recommended order in
// pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins).
import type { Status } from '../../api/index.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from './types.ts';

export type AdmissionPhase = 'mutating' | 'validating';

/** One plugin's verdict, for the audit trail. */
export interface AdmissionStep {
  plugin: string;
  phase: AdmissionPhase;
  allowed: boolean;
  message?: string;
}

export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  /** Runs one phase; `done` gets the steps taken and the refusal, if any. */
  run(phase: AdmissionPhase, a: AdmissionAttributes, ctx: AdmissionContext, done: (steps: AdmissionStep[], error?: Status) => void): void {
    const steps: AdmissionStep[] = [];
    const next = (i: number): void => {
      if (i >= this.plugins.length) return done(steps);
      const plugin = this.plugins[i]!;
      const fn = phase === 'mutating' ? plugin.admit : plugin.validate;
      if (!fn) return next(i + 1);
      fn.call(plugin, a, ctx, (error) => {
        const step: AdmissionStep = { plugin: plugin.name, phase, allowed: error === undefined };
        if (error?.message !== undefined) step.message = error.message;
        steps.push(step);
        if (error) return done(steps, error);
        next(i + 1);
      });
    };
    next(0);
  }
}
