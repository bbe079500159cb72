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
  /**
   * Each phase's verdicts when every plugin allows: the list most runs end with, made once and
   * shared (frozen) rather than rebuilt step by step for every request.
   */
  private readonly allowed: Record<AdmissionPhase, readonly AdmissionStep[]>;

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    const allowedSteps = (phase: AdmissionPhase): readonly AdmissionStep[] => Object.freeze(
      plugins.filter((p) => (phase === 'mutating' ? p.admit : p.validate) !== undefined)
        .map((p) => Object.freeze({ plugin: p.name, phase, allowed: true })),
    );
    this.allowed = { mutating: allowedSteps('mutating'), validating: allowedSteps('validating') };
  }

  /** Runs one phase; `done` gets the steps taken (never to be changed) and the refusal, if any. */
  run(phase: AdmissionPhase, a: AdmissionAttributes, ctx: AdmissionContext, done: (steps: readonly AdmissionStep[], error?: Status) => void): void {
    const allowed = this.allowed[phase];
    let taken = 0; // steps taken so far, all allowed: the first `taken` of `allowed`
    const next = (i: number): void => {
      if (i >= this.plugins.length) return done(allowed);
      const plugin = this.plugins[i]!;
      const fn = phase === 'mutating' ? plugin.admit : plugin.validate;
      if (!fn) return next(i + 1);
      fn.call(plugin, a, ctx, (error) => {
        if (error) {
          const step: AdmissionStep = { plugin: plugin.name, phase, allowed: false };
          if (error.message !== undefined) step.message = error.message;
          return done([...allowed.slice(0, taken), step], error);
        }
        taken++;
        next(i + 1);
      });
    };
    next(0);
  }
}
