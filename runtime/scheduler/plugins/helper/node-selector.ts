// Node selector matching for nodeSelector and nodeAffinity.
// mirrors component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (LazyErrorNodeSelector,
// NodeSelectorRequirementsAsSelector, MatchNodeSelectorTerms): terms are ORed, requirements in a
// term ANDed; an empty term matches nothing; an invalid requirement makes its term not match.
import type { NodeSelectorRequirement, NodeSelectorTerm } from '../../../api/index.ts';

type Labels = Readonly<Record<string, string>>;

/** Go's strconv.ParseInt(s, 10, 64) domain: an optional sign and decimal digits. */
function parseInt64(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

function matchRequirement(req: NodeSelectorRequirement, labels: Labels): boolean {
  const values = req.values ?? [];
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key];
  switch (req.operator) {
    case 'In':
      return values.length > 0 && has && values.includes(value!);
    case 'NotIn':
      return values.length > 0 && (!has || !values.includes(value!));
    case 'Exists':
      return values.length === 0 && has;
    case 'DoesNotExist':
      return values.length === 0 && !has;
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1 || !has) return false;
      const want = parseInt64(values[0]!);
      const got = parseInt64(value!);
      if (want === undefined || got === undefined) return false;
      return req.operator === 'Gt' ? got > want : got < want;
    }
    default:
      return false;
  }
}

/** matchFields supports only metadata.name with In / NotIn (as upstream's field selector). */
function matchField(req: NodeSelectorRequirement, nodeName: string): boolean {
  if (req.key !== 'metadata.name') return false;
  const values = req.values ?? [];
  if (req.operator === 'In') return values.length === 1 && values[0] === nodeName;
  if (req.operator === 'NotIn') return values.length === 1 && values[0] !== nodeName;
  return false;
}

export function matchNodeSelectorTerm(
  term: NodeSelectorTerm,
  labels: Labels,
  nodeName: string,
): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  return (
    exprs.every((r) => matchRequirement(r, labels)) && fields.every((r) => matchField(r, nodeName))
  );
}

export function matchNodeSelectorTerms(
  terms: readonly NodeSelectorTerm[],
  labels: Labels,
  nodeName: string,
): boolean {
  return terms.some((t) => matchNodeSelectorTerm(t, labels, nodeName));
}

/** spec.nodeSelector: every key must be present with the same value. */
export function matchNodeSelectorMap(selector: Labels | undefined, labels: Labels): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
}
