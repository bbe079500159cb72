// LimitRanger: containers without requests or limits get the namespace's LimitRange defaults
// (mutating), and no container may ask for more than max or less than min (validating).
// mirrors plugin/pkg/admission/limitranger/admission.go (defaultContainerResourceRequirements,
// mergeContainerResources, mergePodResourceRequirements, PodValidateLimitFunc, the
// "kubernetes.io/limit-ranger" annotation and its error texts).
import { Quantity, type Container, type LimitRange, type LimitRangeItem, type Pod } from '../../../api/index.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionContext, AdmissionPlugin } from '../types.ts';
import { containersOf, podBeingCreated } from './pod-helpers.ts';

const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

function containerItems(ctx: AdmissionContext, namespace: string): LimitRangeItem[] {
  const out: LimitRangeItem[] = [];
  for (const lr of ctx.cachedList('', 'limitranges', namespace)) {
    const limits: unknown = (lr as LimitRange).spec?.limits;
    if (Array.isArray(limits)) for (const item of limits as (LimitRangeItem | null)[]) if (item?.type === 'Container') out.push(item);
  }
  return out;
}

function parse(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = Quantity.parse(String(v));
  return r.ok ? r.quantity : undefined;
}

/**
 * defaultContainerResourceRequirements: one LimitRange's Container items merged (a later item's
 * defaultRequest/default overriding an earlier one's).
 */
function defaultRequirements(lr: LimitRange): { requests: Record<string, unknown>; limits: Record<string, unknown> } {
  const requests: Record<string, unknown> = {};
  const limits: Record<string, unknown> = {};
  const items: unknown = lr.spec?.limits;
  if (Array.isArray(items)) {
    for (const item of items as (LimitRangeItem | null)[]) {
      if (item?.type !== 'Container') continue;
      Object.assign(requests, item.defaultRequest ?? {});
      Object.assign(limits, item.default ?? {});
    }
  }
  return { requests, limits };
}

/**
 * mergeContainerResources: each default the container lacks is set (requests are checked against
 * requests alone: API defaulting has already copied limits into missing requests), and one note per
 * kind lists the names sorted: "cpu, memory request for container a".
 */
function mergeContainerResources(
  c: Container,
  defaults: { requests: Record<string, unknown>; limits: Record<string, unknown> },
  prefix: 'container' | 'init container',
  notes: string[],
): void {
  // (upstream makes both maps non-nil; empty ones are omitted from the JSON, so none is made here)
  const res = (c.resources ??= {});
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [name, value] of Object.entries(defaults.limits)) {
    if (res.limits?.[name] !== undefined) continue;
    (res.limits ??= {})[name] = value as string;
    setLimits.push(name);
  }
  for (const [name, value] of Object.entries(defaults.requests)) {
    if (res.requests?.[name] !== undefined) continue;
    (res.requests ??= {})[name] = value as string;
    setRequests.push(name);
  }
  // Go's sort.Strings: byte order
  const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  if (setRequests.length > 0) notes.push(`${setRequests.sort(byteOrder).join(', ')} request for ${prefix} ${c.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort(byteOrder).join(', ')} limit for ${prefix} ${c.name}`);
}

/**
 * mergePodResourceRequirements for one LimitRange: containers, then init containers, and the
 * annotation "LimitRanger plugin set: <notes joined by '; '>" (each LimitRange that sets anything
 * writes it again, as PodMutateLimitFunc runs once per LimitRange).
 */
function mergePodResourceRequirements(pod: Pod, lr: LimitRange): void {
  const defaults = defaultRequirements(lr);
  const notes: string[] = [];
  const each = (list: unknown, prefix: 'container' | 'init container'): void => {
    if (Array.isArray(list)) for (const c of list as unknown[]) if (typeof c === 'object' && c !== null) mergeContainerResources(c as Container, defaults, prefix, notes);
  };
  each(pod.spec.containers, 'container');
  each(pod.spec.initContainers, 'init container');
  if (notes.length > 0) annotate(pod, `LimitRanger plugin set: ${notes.join('; ')}`);
}

function violation(c: Container, item: LimitRangeItem): string | undefined {
  for (const [name, maxText] of Object.entries(item.max ?? {})) {
    const max = parse(maxText);
    const limit = parse(c.resources?.limits?.[name]);
    if (!max) continue;
    if (!limit) return `maximum ${name} usage per Container is ${max.toString()}.  No limit is specified`;
    if (limit.cmp(max) > 0) return `maximum ${name} usage per Container is ${max.toString()}, but limit is ${limit.toString()}`;
  }
  for (const [name, minText] of Object.entries(item.min ?? {})) {
    const min = parse(minText);
    const request = parse(c.resources?.requests?.[name]);
    if (!min) continue;
    if (!request) return `minimum ${name} usage per Container is ${min.toString()}.  No request is specified`;
    if (request.cmp(min) < 0) return `minimum ${name} usage per Container is ${min.toString()}, but request is ${request.toString()}`;
  }
  return undefined;
}

export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  admit(a, ctx, done) {
    const pod = podBeingCreated(a);
    if (!pod || !a.namespace) return done();
    // runLimitFunc: PodMutateLimitFunc once per LimitRange of the namespace
    for (const lr of ctx.cachedList('', 'limitranges', a.namespace)) mergePodResourceRequirements(pod, lr as LimitRange);
    done();
  },
  validate(a, ctx, done) {
    const pod = podBeingCreated(a);
    if (!pod || !a.namespace) return done();
    for (const c of containersOf(pod)) {
      for (const item of containerItems(ctx, a.namespace)) {
        const v = violation(c, item);
        if (v) return done(admissionForbidden(a, v));
      }
    }
    done();
  },
};

function annotate(pod: Pod, text: string): void {
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: text };
}
