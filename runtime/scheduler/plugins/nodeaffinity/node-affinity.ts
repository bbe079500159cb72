// mirrors pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go: Filter requires
// spec.nodeSelector and requiredDuringScheduling node affinity to match (PreFilter skips the
// Filter when the pod has neither); Score sums the weights of the preferred terms the node
// matches, normalized so the best node gets 100. NodeAffinityArgs.addedAffinity (a profile's
// pluginConfig) applies to every pod: its required terms are checked before the pod's own
// ("node(s) didn't match scheduler-enforced node affinity"), so both must match, and its
// preferred terms' weights add to every score.
import type { NodeSelector, NodeSelectorTerm, Pod, PreferredSchedulingTerm } from '../../../api/index.ts';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interface.ts';
import { mergeNodeNames, type FilterPlugin, type PreFilterPlugin, type PreScorePlugin } from '../../framework/cycle.ts';
import type { SchedNode, SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, skip, success, unresolvable } from '../../framework/status.ts';
import { defaultNormalizeScore } from '../helper/normalize-score.ts';
import {
  matchNodeSelectorMap,
  matchNodeSelectorTerm,
  matchNodeSelectorTerms,
} from '../helper/node-selector.ts';

export const NAME = 'NodeAffinity';
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
/** errReasonEnforced: a node the profile's addedAffinity rejects. */
export const ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";

/** NodeAffinityArgs (kubescheduler.config.k8s.io/v1). */
export interface NodeAffinityArgs {
  addedAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
    preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
  };
}
const PRE_SCORE_KEY = 'PreScore' + NAME;
/** Every required term names nodes, and no node is named by all requirements of any term. */
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

/**
 * The nodes the required terms allow by name (matchFields metadata.name In [...]), as PreFilter
 * returns them: each term's name requirements are ANDed (intersected), the terms ORed (united).
 * null when some term does not restrict names (any node may match it), or there are no terms.
 */
function requiredNodeNames(terms: readonly NodeSelectorTerm[]): ReadonlySet<string> | null {
  if (terms.length === 0) return null;
  let names: Set<string> | null = null;
  for (const t of terms) {
    let termNames: ReadonlySet<string> | null = null;
    for (const r of t.matchFields ?? []) {
      if (r.key === 'metadata.name' && r.operator === 'In') termNames = mergeNodeNames(termNames, new Set(r.values ?? []));
    }
    if (termNames === null) return null;
    names = new Set([...(names ?? []), ...termNames]);
  }
  return names;
}

function requiredTerms(pod: Pod): NodeSelectorTerm[] | undefined {
  return pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms;
}

/** GetRequiredNodeAffinity(pod).Match(node): nodeSelector AND (any required term). */
export function podMatchesNodeSelectorAndAffinity(pod: Pod, node: SchedNode): boolean {
  if (!matchNodeSelectorMap(pod.spec.nodeSelector, node.labels)) return false;
  const terms = requiredTerms(pod);
  return terms === undefined || matchNodeSelectorTerms(terms, node.labels, node.name);
}

function preferredTerms(pod: Pod): PreferredSchedulingTerm[] {
  return pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
}

/** Sum of the weights of the preferred terms this node matches (zero-weight terms ignored). */
export function preferredScore(terms: readonly PreferredSchedulingTerm[], node: SchedNode): number {
  let sum = 0;
  for (const t of terms) {
    if (t.weight !== 0 && matchNodeSelectorTerm(t.preference, node.labels, node.name))
      sum += t.weight;
  }
  return sum;
}

/**
 * New: the addedAffinity's required NodeSelector (terms ORed; an empty term, or no term at all,
 * matches no node) and its preferred terms (zero weights and empty preferences dropped, as
 * NewPreferredSchedulingTerms does). The args were validated with the profile.
 */
export function newNodeAffinity(args?: NodeAffinityArgs): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin {
  const added = args?.addedAffinity;
  const addedRequired = added?.requiredDuringSchedulingIgnoredDuringExecution;
  const addedTerms = addedRequired ? (addedRequired.nodeSelectorTerms ?? []) : undefined;
  // addedPrefSchedTerms is set whenever terms were given, even if none of them counts
  const addedPreferredGiven = (added?.preferredDuringSchedulingIgnoredDuringExecution ?? []).length > 0;
  const addedPreferred = (added?.preferredDuringSchedulingIgnoredDuringExecution ?? []).filter(
    (t) => t.weight !== 0 && ((t.preference?.matchExpressions ?? []).length > 0 || (t.preference?.matchFields ?? []).length > 0),
  );
  return {
    name: NAME,
    preFilter(_state, pod) {
      const hasSelector = Object.keys(pod.pod.spec.nodeSelector ?? {}).length > 0;
      const terms = requiredTerms(pod.pod);
      if (!hasSelector && terms === undefined && addedTerms === undefined) return [null, skip()];
      const names = requiredNodeNames(terms ?? []);
      if (names === null) return [null, success()];
      if (names.size === 0) return [null, unresolvable(ERR_REASON_CONFLICT)];
      return [{ nodeNames: names }, success()];
    },
    filter(_state, pod, nodeInfo) {
      if (!nodeInfo.node) return errorStatus('node not found');
      if (addedTerms !== undefined && !matchNodeSelectorTerms(addedTerms, nodeInfo.node.labels, nodeInfo.node.name)) {
        return unresolvable(ERR_REASON_ENFORCED);
      }
      return podMatchesNodeSelectorAndAffinity(pod.pod, nodeInfo.node)
        ? success()
        : unresolvable(ERR_REASON_POD);
    },
    preScore(state, pod) {
      const terms = preferredTerms(pod.pod);
      if (terms.length === 0 && !addedPreferredGiven) return skip();
      state.set(PRE_SCORE_KEY, terms);
      return success();
    },
    score(state, pod, nodeInfo) {
      const node = (nodeInfo as SchedNodeInfo).node;
      if (!node) return [0, errorStatus('node not found')];
      const terms =
        (state.get(PRE_SCORE_KEY) as PreferredSchedulingTerm[] | undefined) ??
        preferredTerms((pod as SchedPodInfo).pod);
      // the added preferred terms count first, then the pod's own
      return [preferredScore(addedPreferred, node) + preferredScore(terms, node), success()];
    },
    scoreExtensions: () => ({
      normalizeScore: (_state, _pod, scores) => [
        defaultNormalizeScore(MAX_NODE_SCORE, false, scores),
        success(),
      ],
    }),
  };
}
