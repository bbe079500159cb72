// kubectl describe for ResourceQuota and LimitRange, and the quota and limit sections of
// `kubectl describe namespace`. mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
// (describeQuota, helpTextForResourceQuotaScope, describeLimitRange, describeLimitRangeSpec,
// DescribeResourceQuotas, DescribeLimitRanges). Go ranges over the resource names of a limit item
// in map order; we print them sorted, so the output is stable.
import type { LimitRange, ResourceQuota } from '../../../api/index.ts';
import { Quantity } from '../../../api/index.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './writer.ts';

const SCOPE_HELP: Record<string, string> = {
  Terminating: 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.',
  NotTerminating: 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
  BestEffort: 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
  NotBestEffort: 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.',
};

/** describeQuota prints used in the hard value's format (a "0" used against "1Gi" stays "0"). */
function usedText(used: string | undefined, hard: string): string {
  if (used === undefined) return '0';
  const u = Quantity.parse(used);
  const h = Quantity.parse(hard);
  if (!u.ok || !h.ok || u.quantity.format === h.quantity.format) return used;
  return Quantity.fromInt(u.quantity.value(), h.quantity.format).toString();
}

function writeScopes(w: PrefixWriter, level: number, q: ResourceQuota, bullet: string): void {
  const scopes = [...(q.spec?.scopes ?? [])].sort();
  if (scopes.length === 0) return;
  w.write(level, `Scopes:\t${scopes.join(', ')}\n`);
  for (const s of scopes) if (SCOPE_HELP[s]) w.write(level, `${bullet}${SCOPE_HELP[s]}\n`);
}

function writeQuotaRows(w: PrefixWriter, level: number, q: ResourceQuota): void {
  const hard = q.status?.hard ?? {};
  for (const name of Object.keys(hard).sort()) {
    w.write(level, `${name}\t${usedText(q.status?.used?.[name], hard[name]!)}\t${hard[name]}\n`);
  }
}

export function describeResourceQuota(q: ResourceQuota): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${q.metadata.name ?? ''}\n`);
  w.write(LEVEL_0, `Namespace:\t${q.metadata.namespace ?? ''}\n`);
  writeScopes(w, LEVEL_0, q, ' * ');
  w.write(LEVEL_0, 'Resource\tUsed\tHard\n');
  w.write(LEVEL_0, '--------\t----\t----\n');
  writeQuotaRows(w, LEVEL_0, q);
  return w.toString();
}

/** Quantity.String() of a limit value; "-" when unset. */
function canonical(value: string | undefined): string {
  if (value === undefined) return '-';
  const q = Quantity.parse(String(value));
  return q.ok ? q.quantity.toString() : value;
}

const LIMIT_FIELDS = ['min', 'max', 'defaultRequest', 'default', 'maxLimitRequestRatio'] as const;

function writeLimitRangeSpec(w: PrefixWriter, lr: LimitRange, prefix: string): void {
  for (const item of lr.spec?.limits ?? []) {
    const names = new Set<string>();
    for (const f of LIMIT_FIELDS) for (const k of Object.keys(item[f] ?? {})) names.add(k);
    for (const name of [...names].sort()) {
      const cells = LIMIT_FIELDS.map((f) => canonical(item[f]?.[name]));
      w.write(LEVEL_0, `${prefix}${item.type}\t${name}\t${cells.join('\t')}\n`);
    }
  }
}

const LIMIT_HEADER = 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n';
const LIMIT_RULE = '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n';

export function describeLimitRange(lr: LimitRange): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${lr.metadata.name ?? ''}\n`);
  w.write(LEVEL_0, `Namespace:\t${lr.metadata.namespace ?? ''}\n`);
  w.write(LEVEL_0, LIMIT_HEADER);
  w.write(LEVEL_0, LIMIT_RULE);
  writeLimitRangeSpec(w, lr, '');
  return w.toString();
}

/** DescribeResourceQuotas: the "Resource Quotas" section of a namespace, quotas by name. */
export function writeNamespaceQuotas(w: PrefixWriter, quotas: readonly ResourceQuota[]): void {
  if (quotas.length === 0) return w.write(LEVEL_0, 'No resource quota.\n');
  w.write(LEVEL_0, 'Resource Quotas\n');
  for (const q of [...quotas].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
    w.write(LEVEL_1, `Name:\t${q.metadata.name ?? ''}\n`);
    writeScopes(w, LEVEL_1, q, '* ');
    w.write(LEVEL_1, 'Resource\tUsed\tHard\n');
    w.write(LEVEL_1, '--------\t---\t---\n');
    writeQuotaRows(w, LEVEL_1, q);
  }
}

/** DescribeLimitRanges: every item of every LimitRange in one table. */
export function writeNamespaceLimitRanges(w: PrefixWriter, ranges: readonly LimitRange[]): void {
  if (ranges.length === 0) return w.write(LEVEL_0, 'No LimitRange resource.\n');
  w.write(LEVEL_0, `Resource Limits\n ${LIMIT_HEADER}`);
  w.write(LEVEL_0, ` ${LIMIT_RULE}`);
  for (const lr of ranges) writeLimitRangeSpec(w, lr, ' ');
}
