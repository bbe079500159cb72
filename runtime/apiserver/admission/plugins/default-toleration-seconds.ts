// DefaultTolerationSeconds: every pod tolerates not-ready and unreachable nodes for 300 s before
// the taint manager evicts it, unless it already says otherwise.
// mirrors plugin/pkg/admission/defaulttolerationseconds/admission.go
import type { Toleration } from '../../../api/index.ts';
import type { AdmissionPlugin } from '../types.ts';
import { notAList, podBeingCreated } from './pod-helpers.ts';

export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

const toleratesNoExecute = (ts: readonly Toleration[], key: string): boolean =>
  ts.some((t) => typeof t === 'object' && t !== null && (t.effect === undefined || t.effect === 'NoExecute') && (t.key === key || (t.key === undefined || t.key === '') && t.operator === 'Exists'));

export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  admit(a, _ctx, done) {
    const pod = podBeingCreated(a);
    if (!pod || notAList(pod.spec.tolerations)) return done();
    const existing = Array.isArray(pod.spec.tolerations) ? pod.spec.tolerations : [];
    const added: Toleration[] = [];
    if (!toleratesNoExecute(existing, NOT_READY)) {
      added.push({ key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS });
    }
    if (!toleratesNoExecute(existing, UNREACHABLE)) {
      added.push({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_UNREACHABLE_TOLERATION_SECONDS });
    }
    if (added.length > 0) pod.spec.tolerations = [...existing, ...added];
    done();
  },
};
