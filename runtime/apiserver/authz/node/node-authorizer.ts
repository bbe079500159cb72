// The Node authorizer: what a kubelet may do, decided by what is bound to its node.
// mirrors plugin/pkg/auth/authorizer/node/node_authorizer.go. A request from a node identity
// (user system:node:<name> in group system:nodes, nodeidentifier) to read a Secret, ConfigMap or
// PersistentVolumeClaim, or to create a ServiceAccount token, is allowed only if a pod bound to
// that node refers to the object (the graph's path node <- pod -> object); a node may touch only
// its own Lease; everything else is checked against the static system:node rules. It never
// denies: NoOpinion lets RBAC decide, and RBAC binds no one to system:node (kubeadm runs
// --authorization-mode=Node,RBAC).
import type { Pod } from '../../../api/index.ts';
import { NODES_GROUP, type UserInfo } from '../../authn/user.ts';
import type { Attributes, AuthorizationResult, Authorizer, UserRules } from '../attributes.ts';
import { ruleAllows } from '../rbac/rule.ts';
import { nodeRules } from '../rbac/bootstrap-policy.ts';
import { podReferences, type ReferencedKind } from './pod-references.ts';

const NODE_USER_PREFIX = 'system:node:';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** The refusal of another node's Lease (the authorizer, and NodeRestriction on create, say the same). */
export const OTHER_NODE_LEASE = 'can only access node lease with the same name as the requesting node';

/** nodeidentifier.NodeIdentity: the node's name, '' for a node user without one, undefined for anyone else. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.groups.includes(NODES_GROUP) || !user.name.startsWith(NODE_USER_PREFIX)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

const allow = (): AuthorizationResult => ({ decision: 'Allow', reason: '' });
const noOpinion = (reason: string): AuthorizationResult => ({ decision: 'NoOpinion', reason });

export class NodeAuthorizer implements Authorizer {
  private readonly rules = nodeRules();

  /** `podsOnNode` lists the pods bound to a node (the API server's watch cache, indexed by spec.nodeName). */
  constructor(private readonly podsOnNode: (node: string) => readonly Pod[]) {}

  authorize(a: Attributes): AuthorizationResult {
    const node = nodeIdentity(a.user);
    if (node === undefined) return noOpinion('');
    if (node === '') return noOpinion(`unknown node for user "${a.user.name}"`);
    if (a.resourceRequest && (a.apiGroup ?? '') === '') {
      switch (a.resource) {
        case 'secrets':
        case 'configmaps':
          return this.readNamespacedObject(node, a.resource, a);
        case 'persistentvolumeclaims':
          return this.getObject(node, a.resource, a);
        case 'serviceaccounts':
          return this.createToken(node, a);
      }
    }
    if (a.resourceRequest && a.apiGroup === 'coordination.k8s.io' && a.resource === 'leases') return this.lease(node, a);
    // access to other resources is not subdivided: the static node rules decide
    return this.rules.some((r) => ruleAllows(a, r)) ? allow() : noOpinion('');
  }

  /** A node's permissions depend on the pods bound to it: they cannot be listed (RulesFor). */
  rulesFor(user: UserInfo): UserRules {
    if (nodeIdentity(user) === undefined) return { resourceRules: [], nonResourceRules: [], incomplete: false };
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
  }

  /** authorizeReadNamespacedObject: get, list or watch of one named object in a namespace. */
  private readNamespacedObject(node: string, kind: ReferencedKind, a: Attributes): AuthorizationResult {
    if (!['get', 'list', 'watch'].includes(a.verb)) return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return this.related(node, kind, a);
  }

  /** authorizeGet: get of one named object. */
  private getObject(node: string, kind: ReferencedKind, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return this.related(node, kind, a);
  }

  /** authorizeCreateToken: a token for a service account a pod on this node runs as. */
  private createToken(node: string, a: Attributes): AuthorizationResult {
    if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.related(node, 'serviceaccounts', a);
  }

  /** authorizeLease: a node reads and writes only its own Lease in kube-node-lease. */
  private lease(node: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    // the name is unknown on create (the NodeRestriction admission plugin checks it then)
    if (a.verb !== 'create' && a.name !== node) return noOpinion(OTHER_NODE_LEASE);
    return allow();
  }

  /** authorize + hasPathFrom: a pod bound to the node refers to the object. */
  private related(node: string, kind: ReferencedKind, a: Attributes): AuthorizationResult {
    if (!a.name) return noOpinion('No Object name found');
    const found = this.podsOnNode(node).some((p) => (p.metadata.namespace ?? '') === a.namespace && podReferences(p, kind, a.name!));
    return found ? allow() : noOpinion(`no relationship found between node '${node}' and this object`);
  }
}
