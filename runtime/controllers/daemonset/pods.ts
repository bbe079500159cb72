// How daemon pods are made and recognised, mirroring pkg/controller/daemon/util/daemonset_util.go
// (CreatePodTemplate, ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName, IsPodUpdated,
// GetTemplateGeneration) and pkg/controller/controller_utils.go (GetPodFromTemplate).
import type { Affinity, DaemonSet, NodeSelectorTerm, Pod, PodTemplateSpec } from '../../api/index.ts';
import { deepCopy } from '../../api/index.ts';
import { newControllerRef } from '../controller-utils.ts';
import { withDaemonTolerations } from './eligibility.ts';

/** apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey). */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** The annotation the API server keeps spec.templateGeneration in for apps/v1. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

export const DS_KIND = { apiVersion: 'apps/v1', kind: 'DaemonSet' } as const;

/** GetTemplateGeneration: the annotation as a number, undefined when absent or unparsable. */
export function templateGeneration(ds: DaemonSet): number | undefined {
  const raw = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
}

/** CreatePodTemplate: the DaemonSet's template plus daemon tolerations and the two revision labels. */
export function daemonPodTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
  const t = deepCopy(ds.spec.template);
  t.spec.tolerations = withDaemonTolerations(t.spec);
  const labels = { ...(t.metadata?.labels ?? {}) };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = String(generation);
  if (hash) labels[REVISION_HASH_LABEL] = hash;
  t.metadata = { ...(t.metadata ?? {}), labels };
  return t;
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes exactly one term,
 * `matchFields metadata.name In [node]`, so the default scheduler can only bind the pod there
 * (upstream since 1.12: the scheduler, not the controller, binds daemon pods). Preferred terms
 * and pod (anti-)affinity are kept.
 */
export function pinToNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const term: NodeSelectorTerm = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  const out = deepCopy(affinity ?? {});
  out.nodeAffinity = { ...(out.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } };
  return out;
}

/** GetPodFromTemplate + the node pinning: the pod the controller creates for one node. */
export function newDaemonPod(ds: DaemonSet, template: PodTemplateSpec, nodeName: string): Pod {
  const metadata: Pod['metadata'] = {
    generateName: `${ds.metadata.name ?? ''}-`,
    namespace: ds.metadata.namespace ?? 'default',
    labels: { ...(template.metadata?.labels ?? {}) },
    ownerReferences: [newControllerRef(ds, DS_KIND.apiVersion, DS_KIND.kind)],
  };
  if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  if (template.metadata?.finalizers) metadata.finalizers = [...template.metadata.finalizers];
  const spec = deepCopy(template.spec);
  spec.affinity = pinToNode(spec.affinity, nodeName);
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec } as Pod;
}

/**
 * GetTargetNodeName: spec.nodeName once bound, else the node named by the pinning term
 * (a single matchFields metadata.name In [one value]); undefined when neither exists.
 */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** IsPodUpdated: the pod carries the current revision hash, or the current template generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  const templateMatches = generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === String(generation);
  const hashMatches = hash.length > 0 && labels[REVISION_HASH_LABEL] === hash;
  return hashMatches || templateMatches;
}

/** podByCreationTimestampAndPhase: scheduled (bound) pods first, then oldest, then by name. */
export function byCreationAndPhase(a: Pod, b: Pod): number {
  const boundA = Boolean(a.spec.nodeName);
  const boundB = Boolean(b.spec.nodeName);
  if (boundA !== boundB) return boundA ? -1 : 1;
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
