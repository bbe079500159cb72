// Priority: a new pod's spec.priority and spec.preemptionPolicy come from its PriorityClass (or
// the globalDefault class, or 0 / PreemptLowerPriority); a pod may not claim other values; an
// update keeps what create resolved; at most one PriorityClass is globalDefault.
// mirrors plugin/pkg/admission/priority/admission.go (Admit/admitPod, Validate/validatePriorityClass,
// getDefaultPriorityClass). Since Kubernetes 1.17 the system classes are no longer limited to
// kube-system here (priorityClassPermittedInNamespace was removed; operators use a ResourceQuota
// with a PriorityClass scope for that), so neither are they here.
import {
  DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS,
  PREEMPT_LOWER_PRIORITY,
  newInternalError,
  type KubeObject,
  type Pod,
  type PreemptionPolicy,
  type PriorityClass,
  type Status,
} from '../../../api/index.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types.ts';

const GROUP = 'scheduling.k8s.io';
const RESOURCE = 'priorityclasses';

const isPods = (a: AdmissionAttributes): boolean => a.resource.group === '' && a.resource.resource === 'pods';
const isPriorityClasses = (a: AdmissionAttributes): boolean => a.resource.group === GROUP && a.resource.resource === RESOURCE;

/** What a pod gets: the class name to record, its value and preemption policy. */
interface Resolved {
  className: string;
  priority: number;
  preemptionPolicy: PreemptionPolicy | undefined;
}

/** getDefaultPriorityClass: the globalDefault class, the lowest value winning if a race made several. */
export function defaultPriorityClass(classes: readonly KubeObject[]): PriorityClass | undefined {
  let found: PriorityClass | undefined;
  for (const o of classes) {
    const pc = o as PriorityClass;
    if (pc.globalDefault === true && (found === undefined || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
  }
  return found;
}

function defaultResolution(ctx: AdmissionContext): Resolved {
  const dpc = defaultPriorityClass(ctx.cachedList(GROUP, RESOURCE, ''));
  if (dpc) return { className: dpc.metadata.name ?? '', priority: dpc.value ?? 0, preemptionPolicy: dpc.preemptionPolicy };
  return { className: '', priority: DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, preemptionPolicy: PREEMPT_LOWER_PRIORITY };
}

/** The named class from the cache, else from etcd (it may have been created a moment ago). */
function lookUpClass(ctx: AdmissionContext, name: string, cb: (pc: PriorityClass | undefined, err?: Status) => void): void {
  const cached = ctx.cached(GROUP, RESOURCE, undefined, name);
  if (cached) return cb(cached as PriorityClass);
  ctx.liveGet(GROUP, RESOURCE, undefined, name, (obj, err) => cb(obj as PriorityClass | undefined, err));
}

/** Checks the pod's own values against the resolution and writes it; a refusal on mismatch. */
function apply(a: AdmissionAttributes, pod: Pod, r: Resolved): Status | undefined {
  const spec = pod.spec;
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== r.priority) {
    return admissionForbidden(a, `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${r.priority} from the given PriorityClass name`);
  }
  if (r.className !== '') spec.priorityClassName = r.className;
  spec.priority = r.priority;
  if (r.preemptionPolicy !== undefined) {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== r.preemptionPolicy) {
      return admissionForbidden(a, `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${r.preemptionPolicy} from the given PriorityClass name`);
    }
    spec.preemptionPolicy = r.preemptionPolicy;
  }
  return undefined;
}

function admitPodCreate(a: AdmissionAttributes, pod: Pod, ctx: AdmissionContext, done: (err?: Status) => void): void {
  const name = pod.spec.priorityClassName ?? '';
  if (name === '') return done(apply(a, pod, defaultResolution(ctx)));
  lookUpClass(ctx, name, (pc, err) => {
    if (err) return done(newInternalError(`failed to get PriorityClass with name ${name}: ${err.message ?? ''}`));
    if (!pc) return done(admissionForbidden(a, `no PriorityClass with name ${name} was found`));
    done(apply(a, pod, { className: name, priority: pc.value ?? 0, preemptionPolicy: pc.preemptionPolicy }));
  });
}

/** On update the values create resolved stay (validation refuses any change to them). */
function admitPodUpdate(pod: Pod, old: Pod | undefined): void {
  if (!old?.spec) return;
  if (pod.spec.priority === undefined && old.spec.priority !== undefined) pod.spec.priority = old.spec.priority;
  if (pod.spec.preemptionPolicy === undefined && old.spec.preemptionPolicy !== undefined) pod.spec.preemptionPolicy = old.spec.preemptionPolicy;
}

function validatePriorityClass(a: AdmissionAttributes, ctx: AdmissionContext): Status | undefined {
  const pc = a.object as PriorityClass | undefined;
  if (pc?.globalDefault !== true) return undefined;
  const dpc = defaultPriorityClass(ctx.cachedList(GROUP, RESOURCE, ''));
  if (!dpc) return undefined;
  // a second default, or another class marked default while one exists (re-saving the default is fine)
  if (a.operation === 'CREATE' || dpc.metadata.name !== pc.metadata.name) {
    return admissionForbidden(a, `PriorityClass ${dpc.metadata.name ?? ''} is already marked as default. Only one default can exist`);
  }
  return undefined;
}

export const priorityAdmission: AdmissionPlugin = {
  name: 'Priority',
  admit(a, ctx, done) {
    if (a.subresource || !isPods(a)) return done();
    const pod = a.object as Pod | undefined;
    if (!pod || typeof pod.spec !== 'object' || pod.spec === null) return done();
    if (a.operation === 'UPDATE') {
      admitPodUpdate(pod, a.oldObject as Pod | undefined);
      return done();
    }
    if (a.operation !== 'CREATE') return done();
    admitPodCreate(a, pod, ctx, done);
  },
  validate(a, ctx, done) {
    if (a.subresource || !isPriorityClasses(a)) return done();
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return done();
    done(validatePriorityClass(a, ctx));
  },
};
