// The admission-limitrange lab: the LimitRanger admission plugin. Its mutating half fills the
// defaults of a namespace's LimitRanges into the containers of a new Pod; its validating half
// refuses a Pod outside their min, max and maxLimitRequestRatio, with upstream's messages.
// Read lab.mdx first. Run the visible examples with `npm run grade -- admission-limitrange --examples`;
// grade with `npm run grade -- admission-limitrange`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { KubeObject, LimitRange, Pod, Status } from '../../runtime/api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../runtime/apiserver/index.ts';

/**
 * PodMutateLimitFunc: fill in, from one LimitRange, the default requests and limits each container
 * and init container lacks, and record them in the kubernetes.io/limit-ranger annotation.
 */
export function podMutateLimitFunc(limitRange: LimitRange, pod: Pod): void {
  // TODO 1: gather the defaults (defaultRequest, default) of the LimitRange's Container items.
  // TODO 2: give every container, then every init container, the ones it lacks; never overwrite.
  // TODO 3: write the annotation, listing what was set, exactly as upstream words it.
  void limitRange;
  void pod;
}

/**
 * PodValidateLimitFunc: '' when every container and init container is within the LimitRange's
 * Container items (min, max, maxLimitRequestRatio); otherwise the messages, aggregated.
 */
export function podValidateLimitFunc(limitRange: LimitRange, pod: Pod): string {
  // TODO 4: parse quantities ("100m", "2Gi", "1.5") into exact values and compare those, not the text.
  // TODO 5: the min, max and ratio checks with upstream's messages, in the order the lab gives.
  void limitRange;
  void pod;
  return '';
}

/** The LimitRanger admission plugin: both halves, for the namespace's LimitRanges. */
export function newLimitRanger(): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    admit(a, ctx, done) {
      // TODO 6: only pods being created; each LimitRange of the namespace in turn (ctx.cachedList).
      void a;
      void ctx;
      done();
    },
    validate(a, ctx, done) {
      // TODO 7: the first LimitRange the pod does not fit refuses it: done(forbidden(a, message)).
      void a;
      void ctx;
      done();
    },
  };
}

/** admission.NewForbidden, written for you: `pods "<name>" is forbidden: <message>`, a 403 Status. */
function forbidden(a: AdmissionAttributes, message: string): Status {
  const meta = (a.object as KubeObject | undefined)?.metadata;
  const name = a.name || meta?.name || meta?.generateName || 'Unknown';
  const group = a.resource.group;
  const qualified = group === '' ? a.resource.resource : `${a.resource.resource}.${group}`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualified} ${JSON.stringify(name)} is forbidden: ${message}`,
    reason: 'Forbidden',
    details: { name, ...(group === '' ? {} : { group }), kind: a.resource.resource },
    code: 403,
  };
}
void forbidden;
