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
    new PhaseRun(this.plugins, this.allowed[phase], phase, a, ctx, done).next();
  }
}

/**
 * One phase's walk over the plugins. A plugin may answer later (after a read from etcd), so the walk
 * keeps its place in fields and hands every plugin the same callback, instead of one closure (and
 * its scope) per plugin per request.
 */
class PhaseRun {
  /** The plugin being asked. */
  private i = 0;
  /** Steps taken so far, all allowed: the first `taken` of `allowed`. */
  private taken = 0;
  private readonly verdict = (error?: Status): void => this.onVerdict(error);

  constructor(
    private readonly plugins: readonly AdmissionPlugin[],
    private readonly allowed: readonly AdmissionStep[],
    private readonly phase: AdmissionPhase,
    private readonly a: AdmissionAttributes,
    private readonly ctx: AdmissionContext,
    private readonly done: (steps: readonly AdmissionStep[], error?: Status) => void,
  ) {}

  /** Asks the next plugin that takes part in this phase; all allowed: done. */
  next(): void {
    for (; this.i < this.plugins.length; this.i++) {
      const plugin = this.plugins[this.i]!;
      const fn = this.phase === 'mutating' ? plugin.admit : plugin.validate;
      if (fn) return fn.call(plugin, this.a, this.ctx, this.verdict);
    }
    this.done(this.allowed);
  }

  private onVerdict(error: Status | undefined): void {
    if (error) {
      const step: AdmissionStep = { plugin: this.plugins[this.i]!.name, phase: this.phase, allowed: false };
      if (error.message !== undefined) step.message = error.message;
      return this.done([...this.allowed.slice(0, this.taken), step], error);
    }
    this.taken++;
    this.i++;
    this.next();
  }
}
