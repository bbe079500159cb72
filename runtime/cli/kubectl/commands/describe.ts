// kubectl describe: fetch the objects, the events about each (field selector on involvedObject),
// and what the describer needs (owned ReplicaSets, pods, EndpointSlices), then print them
// separated by a blank line, as staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go does.
import type {
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  CoreEvent,
  DaemonSet,
  Deployment,
  KubeObject,
  LimitRange,
  Namespace,
  Node,
  Pod,
  Secret,
  PodDisruptionBudget,
  ReplicaSet,
  ResourceInfo,
  ResourceQuota,
  Role,
  RoleBinding,
  Service,
  Endpoints,
  Lease,
} from '../../../api/index.ts';
import { lookupResource } from '../../../api/index.ts';
import type { Ctx } from '../context.ts';
import { forEachSeq, gvr } from '../context.ts';
import {
  describeDeployment,
  describeDaemonSet,
  describeGeneric,
  describeNamespace,
  describeReplicaSet,
  describeService,
  describeEndpoints,
  type Related,
} from '../describe/others.ts';
import { describeConfigMap, describeSecret } from '../describe/config.ts';
import { describeNode } from '../describe/node.ts';
import { describePodDisruptionBudget } from '../describe/pdb.ts';
import { describePod } from '../describe/pod.ts';
import { describeRole, describeRoleBinding } from '../describe/rbac.ts';
import { describeLimitRange, describeResourceQuota } from '../describe/quota.ts';
import type { ObjectList } from '../transport.ts';
import { fetchTargets } from './targets.ts';

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

const MISSING_TYPE =
  'You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n';

export function describeObject(
  obj: KubeObject,
  info: ResourceInfo,
  related: Related,
  nowMs: number,
): string {
  switch (info.kind) {
    case 'Pod':
      return describePod(obj as Pod, related.events, nowMs);
    case 'Deployment':
      return describeDeployment(obj as Deployment, related, nowMs);
    case 'ReplicaSet':
      return describeReplicaSet(obj as ReplicaSet, related, nowMs);
    case 'DaemonSet':
      return describeDaemonSet(obj as DaemonSet, related, nowMs);
    case 'Service':
      return describeService(obj as Service, related, nowMs);
    case 'Endpoints':
      return describeEndpoints(obj as Endpoints, related, nowMs);
    case 'Node':
      return describeNode(obj as Node, related, nowMs);
    case 'Namespace':
      return describeNamespace(obj as Namespace, related);
    case 'ResourceQuota':
      return describeResourceQuota(obj as ResourceQuota);
    case 'LimitRange':
      return describeLimitRange(obj as LimitRange);
    case 'PodDisruptionBudget':
      return describePodDisruptionBudget(obj as PodDisruptionBudget, related.events, nowMs);
    case 'ConfigMap':
      return describeConfigMap(obj as ConfigMap, related.events, nowMs);
    case 'Secret':
      return describeSecret(obj as Secret);
    case 'Role':
    case 'ClusterRole':
      return describeRole(obj as Role | ClusterRole);
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return describeRoleBinding(obj as RoleBinding | ClusterRoleBinding);
    default:
      return describeGeneric(obj, info.namespaced, related, nowMs);
  }
}

export function runDescribe(ctx: Ctx, done: () => void): void {
  fetchTargets(ctx, { missingTypeError: MISSING_TYPE }, (groups) => {
    if (!groups) return done();
    const items = groups.flatMap((g) => g.objects.map((o) => ({ info: g.info, o })));
    if (items.length === 0 && !ctx.failed)
      ctx.stderr += `No resources found in ${ctx.namespace} namespace.\n`;
    const texts: string[] = [];
    forEachSeq(
      items,
      ({ info, o }, next) =>
        gatherRelated(ctx, info, o, (related) => {
          // undefined: fetching what the describer needs failed (the error is printed already)
          if (related) texts.push(describeObject(o, info, related, ctx.nowMs));
          next();
        }),
      () => {
        ctx.out(texts.join('\n\n'));
        done();
      },
    );
  });
}

function list(
  ctx: Ctx,
  resource: string,
  namespace: string | undefined,
  query: { fieldSelector?: string; labelSelector?: string },
  then: (items: KubeObject[]) => void,
): void {
  const info = lookupResource(resource)!;
  ctx.request({ verb: 'list', resource: gvr(info), namespace, query }, (res) =>
    then(res.ok ? (res.body as ObjectList).items : []),
  );
}

function gatherRelated(
  ctx: Ctx,
  info: ResourceInfo,
  obj: KubeObject,
  done: (related: Related | undefined) => void,
): void {
  const namespace = obj.metadata.namespace;
  // searchEvents (describe.go): the events whose involvedObject is this object's reference
  const selector = (uid: string | undefined): string => [
    `involvedObject.name=${obj.metadata.name ?? ''}`,
    `involvedObject.namespace=${namespace ?? ''}`,
    `involvedObject.kind=${info.kind}`,
    ...(uid ? [`involvedObject.uid=${uid}`] : []),
  ].join(',');
  const searchEvents = (then: (events: KubeObject[]) => void): void => {
    list(ctx, 'events', namespace ?? 'default', { fieldSelector: selector(obj.metadata.uid) }, (events) => {
      if (info.kind !== 'Node') return then(events);
      // NodeDescriber: "there are two UIDs for host events": controllers use the node's uid, the
      // kubelet (and kube-proxy) its name; both searches, merged
      list(ctx, 'events', namespace ?? 'default', { fieldSelector: selector(obj.metadata.name) }, (byName) => then([...events, ...byName]));
    });
  };
  // the RBAC describers search no events
  if (RBAC_KINDS.has(info.kind)) return done({ events: [] });
  searchEvents((events) => {
    const related: Related = { events: events as CoreEvent[] };
    if (info.kind === 'Deployment') {
      list(ctx, 'replicasets', namespace, {}, (sets) =>
        done({ ...related, replicaSets: sets as ReplicaSet[] }),
      );
    } else if (info.kind === 'ReplicaSet' || info.kind === 'DaemonSet') {
      list(ctx, 'pods', namespace, {}, (pods) => done({ ...related, pods: pods as Pod[] }));
    } else if (info.kind === 'Node') {
      gatherNode(ctx, obj, related, done);
    } else if (info.kind === 'Service') {
      list(
        ctx,
        'endpointslices',
        namespace,
        { labelSelector: `kubernetes.io/service-name=${obj.metadata.name ?? ''}` },
        (slices) => done({ ...related, endpointSlices: slices as never }),
      );
    } else if (info.kind === 'Namespace') {
      const ns = obj.metadata.name ?? '';
      list(ctx, 'resourcequotas', ns, {}, (quotas) =>
        list(ctx, 'limitranges', ns, {}, (ranges) =>
          done({ ...related, quotas: quotas as ResourceQuota[], limitRanges: ranges as LimitRange[] }),
        ),
      );
    } else done(related);
  });
}

/**
 * NodeDescriber: the node's Lease (none when it is not found; any other error fails the describe),
 * and its non-terminated pods (when listing pods is forbidden: "Pods: not authorized").
 */
function gatherNode(ctx: Ctx, node: KubeObject, related: Related, done: (related: Related | undefined) => void): void {
  const name = node.metadata.name ?? '';
  const leases = lookupResource('leases')!;
  ctx.request({ verb: 'get', resource: gvr(leases), namespace: 'kube-node-lease', name }, (res) => {
    if (!res.ok && res.status.code !== 404) {
      ctx.statusError(res.status);
      return done(undefined);
    }
    const lease = res.ok ? (res.body as Lease) : undefined;
    const query = { fieldSelector: `spec.nodeName=${name},status.phase!=Succeeded,status.phase!=Failed` };
    ctx.request({ verb: 'list', resource: gvr(lookupResource('pods')!), query }, (pods) => {
      if (!pods.ok && pods.status.code !== 403) {
        ctx.statusError(pods.status);
        return done(undefined);
      }
      done({ ...related, ...(lease ? { lease } : {}), ...(pods.ok ? { pods: (pods.body as ObjectList).items as Pod[] } : {}) });
    });
  });
}
