// LimitRanger: containers without requests or limits get the namespace's LimitRange defaults
// (mutating), and no container may ask for more than max or less than min (validating).
// mirrors plugin/pkg/admission/limitranger/admission.go (mergeContainerResources,
// PodValidateLimitFunc, the "kubernetes.io/limit-ranger" annotation and its error texts).
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

function mergeDefaults(c: Container, item: LimitRangeItem, notes: string[]): void {
  const res = (c.resources ??= {});
  for (const [name, value] of Object.entries(item.defaultRequest ?? {})) {
    if (res.requests?.[name] !== undefined || res.limits?.[name] !== undefined) continue;
    (res.requests ??= {})[name] = value;
    notes.push(`${name} request for ${'container'} ${c.name}`);
  }
  for (const [name, value] of Object.entries(item.default ?? {})) {
    if (res.limits?.[name] !== undefined) continue;
    (res.limits ??= {})[name] = value;
    notes.push(`${name} limit for container ${c.name}`);
  }
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
    const items = containerItems(ctx, a.namespace);
    if (items.length === 0) return done();
    const notes: string[] = [];
    for (const c of containersOf(pod)) for (const item of items) mergeDefaults(c, item, notes);
    if (notes.length > 0) annotate(pod, `LimitRanger plugin set: ${notes.join('; ')}`);
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
