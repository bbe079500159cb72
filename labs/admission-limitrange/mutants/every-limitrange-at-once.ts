// Mutant "every-limitrange-at-once": refuses with the violations of every LimitRange of the namespace instead of the first one that refuses.
// A plausible wrong solution; the hidden suite must fail it.
import type { Container, KubeObject, LimitRange, Pod, ResourceList, Status } from '../../../runtime/api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../runtime/apiserver/index.ts';

const ANNOTATION = 'kubernetes.io/limit-ranger';

// ---------------------------------------------------------------- quantities

/** An exact quantity: num / den, den > 0. */
interface Exact {
  num: bigint;
  den: bigint;
}

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** "100m", "1.5", "2Gi", "1e3": the exact value, or undefined if it is not a quantity. */
function parseQuantity(text: string): Exact | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([a-zA-Z]*(?:[eE][+-]?[0-9]+)?)$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole = '', fraction = '', suffix = ''] = m;
  if (whole === '' && fraction === '') return undefined;
  let num = BigInt(`${whole}${fraction}` || '0');
  let den = 10n ** BigInt(fraction.length);
  let exponent: number;
  if (Object.hasOwn(BINARY_SUFFIX, suffix)) {
    num *= 2n ** BigInt(BINARY_SUFFIX[suffix]!);
    exponent = 0;
  } else if (Object.hasOwn(DECIMAL_SUFFIX, suffix)) {
    exponent = DECIMAL_SUFFIX[suffix]!;
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    exponent = Number(suffix.slice(1));
  } else {
    return undefined;
  }
  if (exponent >= 0) num *= 10n ** BigInt(exponent);
  else den *= 10n ** BigInt(-exponent);
  return { num: sign === '-' ? -num : num, den };
}

/** -1, 0 or 1, as Quantity.Cmp. */
function cmp(a: Exact, b: Exact): number {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** exceedsAllowed: |limit| > |request| * ratio, exactly. */
function exceedsAllowed(limit: Exact, request: Exact, ratio: Exact): boolean {
  return abs(limit.num) * request.den * ratio.den > abs(request.num) * ratio.num * limit.den;
}

/** ratioString: |limit| / |request| with six decimals, rounded half to even. */
function ratioString(limit: Exact, request: Exact): string {
  const num = abs(limit.num) * request.den * 1_000_000n;
  const den = abs(request.num) * limit.den;
  let q = num / den;
  const twice = (num % den) * 2n;
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  return `${q / 1_000_000n}.${String(q % 1_000_000n).padStart(6, '0')}`;
}

// ---------------------------------------------------------------- defaults (the mutating half)

/**
 * PodMutateLimitFunc: the defaults of one LimitRange's Container items (a later item overriding an
 * earlier one for the same resource) fill what each container, then each init container, lacks;
 * the annotation lists what was set.
 */
export function podMutateLimitFunc(limitRange: LimitRange, pod: Pod): void {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  for (const item of limitRange.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  const notes: string[] = [];
  for (const c of pod.spec.containers ?? []) mergeContainerResources(c, requests, limits, 'container', notes);
  for (const c of pod.spec.initContainers ?? []) mergeContainerResources(c, requests, limits, 'init container', notes);
  if (notes.length > 0) {
    pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

function mergeContainerResources(c: Container, requests: ResourceList, limits: ResourceList, prefix: string, notes: string[]): void {
  const resources = (c.resources ??= {});
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [name, value] of Object.entries(limits)) {
    if (resources.limits?.[name] !== undefined) continue;
    (resources.limits ??= {})[name] = value;
    setLimits.push(name);
  }
  for (const [name, value] of Object.entries(requests)) {
    if (resources.requests?.[name] !== undefined) continue;
    (resources.requests ??= {})[name] = value;
    setRequests.push(name);
  }
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${c.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${c.name}`);
}

// ---------------------------------------------------------------- constraints (the validating half)

/**
 * PodValidateLimitFunc for Container items: every container, then every init container, against
 * min, max and maxLimitRequestRatio in the order the item lists them. '' when the pod fits;
 * otherwise the aggregate of the messages.
 */
export function podValidateLimitFunc(limitRange: LimitRange, pod: Pod): string {
  const errors: string[] = [];
  for (const item of limitRange.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    for (const containers of [pod.spec.containers ?? [], pod.spec.initContainers ?? []]) {
      for (const c of containers) {
        const requests = c.resources?.requests ?? {};
        const limits = c.resources?.limits ?? {};
        for (const [name, value] of Object.entries(item.min ?? {})) push(errors, minConstraint(item.type, name, value, requests, limits));
        for (const [name, value] of Object.entries(item.max ?? {})) push(errors, maxConstraint(item.type, name, value, requests, limits));
        for (const [name, value] of Object.entries(item.maxLimitRequestRatio ?? {})) push(errors, ratioConstraint(item.type, name, value, requests, limits));
      }
    }
  }
  return aggregate(errors);
}

const push = (errors: string[], message: string | undefined): void => {
  if (message !== undefined) errors.push(message);
};

function quantity(list: ResourceList, name: string): { text: string; value: Exact } | undefined {
  const text = list[name];
  if (text === undefined) return undefined;
  const value = parseQuantity(text);
  return value === undefined ? undefined : { text, value };
}

function minConstraint(type: string, name: string, enforcedText: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const enforced = parseQuantity(enforcedText);
  if (enforced === undefined) return undefined;
  const req = quantity(requests, name);
  const lim = quantity(limits, name);
  if (req === undefined) return `minimum ${name} usage per ${type} is ${enforcedText}.  No request is specified`;
  if (cmp(enforced, req.value) > 0) return `minimum ${name} usage per ${type} is ${enforcedText}, but request is ${req.text}`;
  if (lim !== undefined && cmp(enforced, lim.value) > 0) return `minimum ${name} usage per ${type} is ${enforcedText}, but limit is ${lim.text}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforcedText: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const enforced = parseQuantity(enforcedText);
  if (enforced === undefined) return undefined;
  const req = quantity(requests, name);
  const lim = quantity(limits, name);
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${enforcedText}.  No limit is specified`;
  if (cmp(lim.value, enforced) > 0) return `maximum ${name} usage per ${type} is ${enforcedText}, but limit is ${lim.text}`;
  if (req !== undefined && cmp(req.value, enforced) > 0) return `maximum ${name} usage per ${type} is ${enforcedText}, but request is ${req.text}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforcedText: string, requests: ResourceList, limits: ResourceList): string | undefined {
  const enforced = parseQuantity(enforcedText);
  if (enforced === undefined) return undefined;
  const req = quantity(requests, name);
  const lim = quantity(limits, name);
  const head = `${name} max limit to request ratio per ${type} is ${enforcedText}`;
  if (req === undefined || req.value.num === 0n) return `${head}, but no request is specified or request is 0`;
  if (lim === undefined || lim.value.num === 0n) return `${head}, but no limit is specified or limit is 0`;
  if (exceedsAllowed(lim.value, req.value, enforced)) return `${head}, but provided ratio is ${ratioString(lim.value, req.value)}`;
  return undefined;
}

/** utilerrors.NewAggregate(...).Error(): '' for none, one message as is, several deduplicated in brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return '';
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

// ---------------------------------------------------------------- the plugin

/** SupportsAttributes: only pods being created (no subresource; pods' updates cannot change resources here). */
function podBeingCreated(a: AdmissionAttributes): Pod | undefined {
  if (a.operation !== 'CREATE' || (a.subresource ?? '') !== '') return undefined;
  if (a.resource.group !== '' || a.resource.resource !== 'pods') return undefined;
  return a.object as Pod | undefined;
}

export function newLimitRanger(): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    admit(a, ctx, done) {
      const pod = podBeingCreated(a);
      if (pod !== undefined) {
        for (const lr of ctx.cachedList('', 'limitranges', a.namespace ?? '')) podMutateLimitFunc(lr as LimitRange, pod);
      }
      done();
    },
    validate(a, ctx, done) {
      const pod = podBeingCreated(a);
      if (pod !== undefined) {
        const messages = ctx.cachedList('', 'limitranges', a.namespace ?? '').map((lr) => podValidateLimitFunc(lr as LimitRange, pod)).filter((m) => m !== '');
        if (messages.length > 0) return done(forbidden(a, messages.join(', ')));
      }
      done();
    },
  };
}

/** admission.NewForbidden: `pods "<name>" is forbidden: <message>`, 403. */
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
