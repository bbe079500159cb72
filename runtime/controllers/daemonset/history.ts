// DaemonSet history through ControllerRevisions, mirroring pkg/controller/daemon/update.go
// (constructHistory, snapshot, getPatch, Match, dedupCurHistories, cleanupHistory): each distinct
// pod template is stored once as a ControllerRevision "<ds>-<hash>" whose data is a patch that
// replaces spec.template; the current one gets the highest revision number, and pods carry its
// hash in the controller-revision-hash label. Callback-driven: the API calls answer as events.
import type { ControllerRevision, DaemonSet, Pod } from '../../api/index.ts';
import type { RestClient, RestResponse, SharedInformer } from '../../client/index.ts';
import { controllerOf, newControllerRef } from '../controller-utils.ts';
import { canonicalJSON, computeHash } from '../deployment/util.ts';
import { DS_KIND, REVISION_HASH_LABEL } from './pods.ts';

/** getPatch: {"spec":{"template":{...,"$patch":"replace"}}}. */
export function revisionPatch(ds: DaemonSet): unknown {
  return { spec: { template: { ...ds.spec.template, $patch: 'replace' } } };
}

/** Match: the revision stores exactly this DaemonSet's template. */
export function revisionMatches(ds: DaemonSet, rev: ControllerRevision): boolean {
  return canonicalJSON(rev.data) === canonicalJSON(revisionPatch(ds));
}

/** The hash ComputeHash gives the template (with the DaemonSet's collisionCount). */
export function templateHash(ds: DaemonSet): string {
  return computeHash(ds.spec.template, ds.status?.collisionCount);
}

export interface History {
  hash: string;
  old: ControllerRevision[];
}

export function errorText(res: RestResponse): string {
  const body = res.body as { message?: unknown } | undefined;
  if (typeof body?.message === 'string') return body.message;
  return res.transportError ?? `the server responded with code ${res.code}`;
}

/** constructHistory: find (or create) the current revision, bump its number if an old one is newer. */
export function constructHistory(
  client: RestClient, revisions: SharedInformer<ControllerRevision>, ds: DaemonSet,
  done: (result: History | { error: string }) => void,
): void {
  const namespace = ds.metadata.namespace ?? '';
  const owned = revisions.lister.listInNamespace(namespace, (r) => controllerOf(r)?.uid === ds.metadata.uid);
  const current = owned.filter((r) => revisionMatches(ds, r)).sort((a, b) => b.revision - a.revision);
  const old = owned.filter((r) => !revisionMatches(ds, r));
  const next = old.reduce((max, r) => Math.max(max, r.revision), 0) + 1;
  const cur = current[0];
  if (!cur) return snapshot(client, ds, next, old, done);
  // dedupCurHistories: keep the newest equal revision, drop the duplicates
  for (const dup of current.slice(1)) {
    client.request({ verb: 'delete', group: 'apps', resource: 'controllerrevisions', namespace, name: dup.metadata.name ?? '' }, () => undefined);
  }
  const hash = cur.metadata.labels?.[REVISION_HASH_LABEL] ?? cur.metadata.name ?? '';
  if (cur.revision >= next) return done({ hash, old });
  client.request({ verb: 'update', group: 'apps', resource: 'controllerrevisions', namespace, name: cur.metadata.name ?? '', body: { ...cur, revision: next } }, (res) => {
    done(res.code === 200 ? { hash, old } : { error: errorText(res) });
  });
}

/** snapshot: create "<ds>-<hash>"; an existing one with our template is fine (AlreadyExists). */
function snapshot(client: RestClient, ds: DaemonSet, revision: number, old: ControllerRevision[], done: (result: History | { error: string }) => void): void {
  const hash = templateHash(ds);
  const namespace = ds.metadata.namespace ?? '';
  const name = `${ds.metadata.name ?? ''}-${hash}`;
  const body: ControllerRevision = {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name, namespace,
      labels: { ...(ds.spec.template.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash },
      ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, DS_KIND.apiVersion, DS_KIND.kind)],
    },
    data: revisionPatch(ds),
    revision,
  };
  client.request({ verb: 'create', group: 'apps', resource: 'controllerrevisions', namespace, body }, (res) => {
    if (res.code === 201) return done({ hash, old });
    if (res.code !== 409) return done({ error: errorText(res) });
    client.request({ verb: 'get', group: 'apps', resource: 'controllerrevisions', namespace, name }, (got) => {
      if (got.code === 200 && revisionMatches(ds, got.body as ControllerRevision)) return done({ hash, old });
      // a hash collision: upstream bumps status.collisionCount; the simulation reports it instead
      done({ error: `controllerrevision ${namespace}/${name} already exists with another template` });
    });
  });
}

/**
 * cleanupHistory: beyond revisionHistoryLimit, delete the oldest revisions no live pod
 * (terminal ones included) still carries the hash of.
 */
export function revisionsToDelete(ds: DaemonSet, old: readonly ControllerRevision[], pods: readonly Pod[]): ControllerRevision[] {
  let toKill = old.length - (ds.spec.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return [];
  const live = new Set(pods.map((p) => p.metadata.labels?.[REVISION_HASH_LABEL]).filter((h): h is string => Boolean(h)));
  const out: ControllerRevision[] = [];
  for (const rev of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (live.has(rev.metadata.labels?.[REVISION_HASH_LABEL] ?? '')) continue;
    out.push(rev);
    toKill--;
  }
  return out;
}
