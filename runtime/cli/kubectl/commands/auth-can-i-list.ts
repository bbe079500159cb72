// kubectl auth can-i --list: what the caller may do in a namespace, from a SelfSubjectRulesReview.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go (RunAccessList, printStatus,
// convertToPolicyRule, printAccess, CombineResourceGroup) and
// staging/src/k8s.io/component-helpers/auth/rbac/validation (BreakdownRule, CompactRules) and
// SortableRuleSlice, which sorts by each rule's generated String() ("&PolicyRule{Verbs:[...],...").
import { flagBool } from '../args.ts';
import type { Ctx } from '../context.ts';
import { goSlice } from '../printers/go-format.ts';
import { alignTabs, GET_TABWRITER } from '../printers/tabwriter.ts';

const RULES_REVIEWS = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews' };

export interface PolicyRuleLite {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface RulesStatus {
  resourceRules?: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }[];
  nonResourceRules?: { verbs: string[]; nonResourceURLs?: string[] }[];
  incomplete?: boolean;
  evaluationError?: string;
}

export function runAuthCanIList(ctx: Ctx, done: () => void): void {
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: ctx.namespace } };
  ctx.request({ verb: 'create', resource: RULES_REVIEWS, body }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    const status = (res.body as { status?: RulesStatus }).status ?? {};
    if (status.incomplete) ctx.stderr += `warning: the list may be incomplete: ${status.evaluationError ?? ''}\n`;
    ctx.out(accessTable(status, flagBool(ctx.args, 'no-headers')));
    done();
  });
}

/** printStatus: broken down, compacted, sorted, then one tab-aligned row per rule. */
export function accessTable(status: RulesStatus, noHeaders = false): string {
  const rules: PolicyRuleLite[] = [
    ...(status.resourceRules ?? []).map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames ?? [] })),
    ...(status.nonResourceRules ?? []).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] })),
  ];
  const sorted = breakdownCompactSort(rules);
  const lines = sorted.map((r) => `${combineResourceGroup(r.resources ?? [], r.apiGroups ?? [])}\t${goSlice(r.nonResourceURLs)}\t${goSlice(r.resourceNames)}\t${goSlice(r.verbs)}`);
  if (!noHeaders) lines.unshift('Resources\tNon-Resource URLs\tResource Names\tVerbs');
  return alignTabs(lines.join('\n') + '\n', GET_TABWRITER);
}

/**
 * What printStatus and describe's RoleDescriber/ClusterRoleDescriber do to a rule list: each rule
 * broken down, compacted, then sort.Stable(SortableRuleSlice) by String() (equal strings keep their order).
 */
export function breakdownCompactSort(rules: readonly PolicyRuleLite[]): PolicyRuleLite[] {
  const compact = compactRules(rules.flatMap(breakdownRule));
  return compact.map((r, i) => ({ r, i, key: ruleString(r) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i)).map((x) => x.r);
}

/** BreakdownRule: one rule per group x resource x verb (x name), and per URL x verb. */
export function breakdownRule(rule: PolicyRuleLite): PolicyRuleLite[] {
  const out: PolicyRuleLite[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

/**
 * CompactRules: rules on one group and one resource (at most one name) that differ only by verb
 * become one, its verbs in the order met (duplicates kept); the others pass through, first.
 */
export function compactRules(rules: readonly PolicyRuleLite[]): PolicyRuleLite[] {
  const compacted: PolicyRuleLite[] = [];
  const simple = new Map<string, PolicyRuleLite>();
  for (const rule of rules) {
    const names = rule.resourceNames ?? [];
    const isSimple = names.length <= 1 && (rule.nonResourceURLs ?? []).length === 0 && (rule.apiGroups ?? []).length === 1 && (rule.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = `${rule.apiGroups![0]}\u0000${rule.resources![0]}\u0000${names.length === 1 ? `1${names[0]}` : '0'}`;
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...compacted, ...simple.values()];
}

/** The generated PolicyRule.String() (%v of each slice), which SortableRuleSlice compares. */
function ruleString(r: PolicyRuleLite): string {
  return `&PolicyRule{Verbs:${goSlice(r.verbs)},APIGroups:${goSlice(r.apiGroups)},Resources:${goSlice(r.resources)},ResourceNames:${goSlice(r.resourceNames)},NonResourceURLs:${goSlice(r.nonResourceURLs)},}`;
}

/** CombineResourceGroup: "pods.apps"-style names, "resource/sub" kept after the group. */
export function combineResourceGroup(resources: readonly string[], groups: readonly string[]): string {
  if (resources.length === 0) return '';
  const [name, sub] = resources[0]!.split(/\/(.*)/s, 2) as [string, string | undefined];
  let out = name;
  if (groups.length > 0 && groups[0] !== '') out += `.${groups[0]}`;
  if (sub !== undefined) out += `/${sub}`;
  return out;
}
