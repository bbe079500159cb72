// Where `kubectl rollout history|undo` find a workload's revisions, one source per kind.
// mirrors staging/src/k8s.io/kubectl/pkg/polymorphichelpers/history.go (DeploymentHistoryViewer:
// ReplicaSets and their deployment.kubernetes.io/revision annotation; DaemonSetHistoryViewer:
// the ControllerRevisions the DaemonSet controls) and rollback.go (DeploymentRollbacker,
// DaemonSetRollbacker, findHistory, equalIgnoreHash, daemonSetMatch).
import type {
  ControllerRevision,
  DaemonSet,
  Deployment,
  KubeObject,
  PodTemplateSpec,
  ReplicaSet,
} from '../../api/index.ts';
import { lookupResource } from '../../api/index.ts';
import type { Ctx } from './context.ts';
import { gvr } from './context.ts';
import { writePodTemplate } from './describe/pod.ts';
import { PrefixWriter } from './describe/writer.ts';
import { compactJSON } from './printers/json-emit.ts';
import { alignTabs, DESCRIBE_TABWRITER } from './printers/tabwriter.ts';
import type { ObjectList } from './transport.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';
const POD_TEMPLATE_HASH = 'pod-template-hash';

/** One entry of a workload's rollout history. */
export interface Revision {
  number: number;
  /** kubernetes.io/change-cause of the ReplicaSet or ControllerRevision ('' when unset). */
  changeCause: string;
  /** The pod template `rollout history --revision=N` describes. */
  shown: PodTemplateSpec;
  /** The object that records the revision (ReplicaSet or ControllerRevision). */
  record: KubeObject;
}

/** A patch as `rollout undo` sends it: its type (transport.ts's patchType) and its body. */
export interface RollbackPatch {
  type: 'json' | 'strategic';
  body: unknown;
}

/** What history and undo need to know about one workload kind. */
export interface HistoryKind {
  /** Lists the workload's revisions, oldest first; undefined after a failed request (already reported). */
  revisions(ctx: Ctx, owner: KubeObject, then: (revisions: Revision[] | undefined) => void): void;
  /** The error undo prints when there is no previous revision to go back to. */
  noPrevious(owner: KubeObject): string;
  /** Whether the workload already runs the revision's template (undo then skips). */
  matches(owner: KubeObject, revision: Revision): boolean;
  /** The patch that writes the revision's template back (rollback.go). */
  rollbackPatch(owner: KubeObject, revision: Revision): RollbackPatch;
  /** What `undo --dry-run=client` reports instead of rolling back (the Rollbacker's result text). */
  dryRunResult(revision: Revision): string;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const sameJSON = (a: unknown, b: unknown): boolean => compactJSON(a) === compactJSON(b);
const changeCauseOf = (o: KubeObject): string => o.metadata.annotations?.[CHANGE_CAUSE_ANNOTATION] ?? '';

/** Lists a resource in the owner's namespace and keeps the objects it controls (metav1.IsControlledBy). */
function listControlled(
  ctx: Ctx,
  resource: string,
  owner: KubeObject,
  then: (items: KubeObject[] | undefined) => void,
): void {
  const info = lookupResource(resource)!;
  ctx.request(
    { verb: 'list', resource: gvr(info), namespace: owner.metadata.namespace ?? ctx.namespace },
    (res) => {
      if (!res.ok) {
        ctx.statusError(res.status);
        return then(undefined);
      }
      const items = (res.body as ObjectList).items;
      then(
        items.filter((o) =>
          (o.metadata.ownerReferences ?? []).some(
            (ref) => ref.controller && ref.uid === owner.metadata.uid,
          ),
        ),
      );
    },
  );
}

/** Sorted by number; of two records with one number, the later listed wins (history.go's map). */
function byNumber(revisions: Revision[]): Revision[] {
  const unique = new Map<number, Revision>();
  for (const r of revisions) unique.set(r.number, r);
  return [...unique.values()].sort((a, b) => a.number - b.number);
}

/** The template without the pod-template-hash label the deployment controller adds to ReplicaSets. */
function withoutHash(template: PodTemplateSpec): PodTemplateSpec {
  const copy = clone(template);
  if (copy.metadata?.labels) delete copy.metadata.labels[POD_TEMPLATE_HASH];
  return copy;
}

/** Annotations a rollback keeps from the deployment instead of copying them from the ReplicaSet. */
const DEPLOYMENT_OWN_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/** DeploymentRollbacker's annotations: the deployment's own ones, the rest from the ReplicaSet. */
function rolledBackAnnotations(d: Deployment, rs: KubeObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {}))
    if (DEPLOYMENT_OWN_ANNOTATIONS.has(k)) out[k] = v;
  for (const [k, v] of Object.entries(rs.metadata.annotations ?? {}))
    if (!DEPLOYMENT_OWN_ANNOTATIONS.has(k)) out[k] = v;
  return out;
}

/** A ReplicaSet with the template every controller-made one has. */
type TemplatedReplicaSet = ReplicaSet & { spec: { template: PodTemplateSpec } };

/** The ReplicaSet's template, with its change-cause shown among the template's annotations (as upstream). */
function shownReplicaSetTemplate(rs: TemplatedReplicaSet): PodTemplateSpec {
  const shown = clone(rs.spec.template);
  const cause = changeCauseOf(rs);
  if (cause) {
    shown.metadata = {
      ...(shown.metadata ?? {}),
      annotations: { ...(shown.metadata?.annotations ?? {}), [CHANGE_CAUSE_ANNOTATION]: cause },
    };
  }
  return shown;
}

export const DEPLOYMENT_HISTORY: HistoryKind = {
  revisions(ctx, owner, then) {
    listControlled(ctx, 'replicasets', owner, (items) => {
      if (!items) return then(undefined);
      const numbered = (items as ReplicaSet[]).filter(
        (rs): rs is TemplatedReplicaSet =>
          rs.spec.template !== undefined &&
          /^\d+$/.test(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? ''),
      );
      then(
        byNumber(
          numbered.map((rs) => ({
            number: Number(rs.metadata.annotations![REVISION_ANNOTATION]),
            changeCause: changeCauseOf(rs),
            shown: shownReplicaSetTemplate(rs),
            record: rs,
          })),
        ),
      );
    });
  },
  noPrevious: (owner) => `no rollout history found for deployment "${owner.metadata.name ?? ''}"`,
  matches: (owner, revision) =>
    sameJSON(
      withoutHash((revision.record as TemplatedReplicaSet).spec.template),
      withoutHash((owner as Deployment).spec.template),
    ),
  // getDeploymentPatch: a JSON patch replacing the template (without the pod-template-hash label)
  // and the annotations whole
  rollbackPatch(owner, revision) {
    const d = owner as Deployment;
    return {
      type: 'json',
      body: [
        { op: 'replace', path: '/spec/template', value: withoutHash((revision.record as TemplatedReplicaSet).spec.template) },
        { op: 'replace', path: '/metadata/annotations', value: rolledBackAnnotations(d, revision.record) },
      ],
    };
  },
  // printTemplate of the ReplicaSet's own template (its pod-template-hash label included)
  dryRunResult: (revision) => describeTemplate((revision.record as TemplatedReplicaSet).spec.template),
};

/** The template a DaemonSet ControllerRevision stores: data = {"spec":{"template":{...,"$patch":"replace"}}}. */
export function controllerRevisionTemplate(rev: ControllerRevision): PodTemplateSpec | undefined {
  const data = rev.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const stored = data?.spec?.template;
  if (!stored) return undefined;
  const template = clone(stored);
  delete template.$patch;
  return template as unknown as PodTemplateSpec;
}

export const DAEMONSET_HISTORY: HistoryKind = {
  revisions(ctx, owner, then) {
    listControlled(ctx, 'controllerrevisions', owner, (items) => {
      if (!items) return then(undefined);
      const revisions: Revision[] = [];
      for (const rev of items as ControllerRevision[]) {
        const shown = controllerRevisionTemplate(rev);
        if (shown) revisions.push({ number: rev.revision, changeCause: changeCauseOf(rev), shown, record: rev });
      }
      then(byNumber(revisions));
    });
  },
  noPrevious: () => 'no last revision to roll back to',
  matches: (owner, revision) => sameJSON(revision.shown, (owner as DaemonSet).spec.template),
  // DaemonSetRollbacker: the ControllerRevision's data as it is, a strategic merge patch whose
  // template carries "$patch": "replace"
  rollbackPatch: (_owner, revision) => ({ type: 'strategic', body: clone((revision.record as ControllerRevision).data) }),
  dryRunResult: (revision) => `will roll back to ${describeTemplate(revision.shown)}`,
};

/** The history sources kubectl has (HistoryViewerFor / RollbackerFor), by kind. */
export const HISTORY_KINDS: Readonly<Record<string, HistoryKind>> = {
  Deployment: DEPLOYMENT_HISTORY,
  DaemonSet: DAEMONSET_HISTORY,
};

/**
 * findHistory / deploymentRevision: --to-revision=N picks revision N; without it (0), the
 * second-newest revision. A string is the error undo prints.
 */
export function undoTarget(
  kind: HistoryKind,
  owner: KubeObject,
  revisions: readonly Revision[],
  toRevision: number,
): Revision | string {
  if (toRevision < 0) return revisionNotFound(toRevision);
  if (toRevision > 0)
    return revisions.find((r) => r.number === toRevision) ?? revisionNotFound(toRevision);
  return revisions[revisions.length - 2] ?? kind.noPrevious(owner);
}

const revisionNotFound = (n: number): string => `unable to find specified revision ${n} in history`;

/** printTemplate: describe's "Pod Template:" block. */
function describeTemplate(template: PodTemplateSpec): string {
  const w = new PrefixWriter();
  writePodTemplate(w, template);
  return w.toString();
}

/** ViewHistory: the whole history as a table, or (revision > 0) that revision's pod template. */
export function historyText(
  revisions: readonly Revision[],
  revision: number,
): { ok: true; value: string } | { ok: false; error: string } {
  if (revisions.length === 0) return { ok: true, value: 'No rollout history found.' };
  if (revision > 0) {
    const found = revisions.find((r) => r.number === revision);
    if (!found) return { ok: false, error: 'unable to find the specified revision' };
    return { ok: true, value: describeTemplate(found.shown) };
  }
  const rows = [
    'REVISION\tCHANGE-CAUSE',
    ...revisions.map((r) => `${r.number}\t${r.changeCause || '<none>'}`),
  ];
  return { ok: true, value: alignTabs(rows.join('\n') + '\n', DESCRIBE_TABWRITER) };
}
