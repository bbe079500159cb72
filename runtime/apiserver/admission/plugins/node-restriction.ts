// NodeRestriction: what a kubelet's credentials may change, the write-side partner of the Node
// authorizer (kubeadm enables both). mirrors plugin/pkg/admission/noderestriction/admission.go:
// a node creates only mirror pods bound to itself and owned by its Node, deletes and updates the
// status of only its own pods, evicts only its own pods, modifies only its own Node object,
// creates only its own Lease, and asks for ServiceAccount tokens only bound to its own pods.
import type { KubeObject, Lease, Pod } from '../../../api/index.ts';
import { NODE_LEASE_NAMESPACE, OTHER_NODE_LEASE, nodeIdentity } from '../../authz/node/node-authorizer.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionDone, AdmissionPlugin } from '../types.ts';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** The stored object (a cache miss is read from etcd: it may have been created a moment ago). */
function existing(ctx: AdmissionContext, a: AdmissionAttributes, cb: (o: KubeObject | undefined) => void): void {
  const cached = ctx.cached(a.resource.group, a.resource.resource, a.namespace, a.name);
  if (cached) return cb(cached);
  ctx.liveGet(a.resource.group, a.resource.resource, a.namespace, a.name, (o) => cb(o));
}

function admitPod(node: string, a: AdmissionAttributes, ctx: AdmissionContext, done: AdmissionDone): void {
  const forbid = (reason: string): void => done(admissionForbidden(a, reason));
  const boundHere = (verbPhrase: string): void =>
    existing(ctx, a, (o) => {
      if (!o) return done(); // the handler answers NotFound
      if ((o as Pod).spec.nodeName !== node) return forbid(`node "${node}" can only ${verbPhrase} pods with spec.nodeName set to itself`);
      done();
    });
  switch (a.subresource ?? '') {
    case '':
      if (a.operation === 'CREATE') {
        const pod = a.object as Pod;
        if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
          return forbid(`pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
        }
        if (pod.spec.nodeName !== node) return forbid(`node "${node}" can only create pods with spec.nodeName set to itself`);
        const owners = pod.metadata.ownerReferences ?? [];
        if (owners.length !== 1 || owners[0]!.kind !== 'Node' || owners[0]!.name !== node) {
          return forbid(`node "${node}" can only create pods with an owner reference set to itself`);
        }
        return done();
      }
      if (a.operation === 'DELETE') return boundHere('delete');
      return forbid(`unexpected operation ${a.operation}, node "${node}" can only create and delete mirror pods`);
    case 'status':
      if (a.operation !== 'UPDATE') return forbid(`unexpected operation ${a.operation}`);
      return boundHere('update pod status for');
    case 'eviction':
      return boundHere('evict');
    default:
      return forbid(`unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
  }
}

function admitToken(node: string, a: AdmissionAttributes, ctx: AdmissionContext, done: AdmissionDone): void {
  if (a.subresource !== 'token' || a.operation !== 'CREATE') return done();
  const ref = (a.object as { spec?: { boundObjectRef?: { kind?: string; name?: string; uid?: string } } } | undefined)?.spec?.boundObjectRef;
  if (!ref) return done(admissionForbidden(a, 'node requested token not bound to a pod'));
  if (ref.kind !== 'Pod') return done(admissionForbidden(a, 'node requested token bound to an object other than a pod'));
  ctx.liveGet('', 'pods', a.namespace, ref.name ?? '', (pod) => {
    if (!pod) return done(admissionForbidden(a, `pods "${ref.name ?? ''}" not found`));
    if (ref.uid && ref.uid !== pod.metadata.uid) {
      return done(admissionForbidden(a, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`));
    }
    if ((pod as Pod).spec.nodeName !== node) return done(admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node'));
    done();
  });
}

export const nodeRestriction: AdmissionPlugin = {
  name: 'NodeRestriction',
  validate(a, ctx, done) {
    const node = nodeIdentity(a.user);
    if (node === undefined) return done();
    if (node === '') return done(admissionForbidden(a, `could not determine node from user "${a.user.name}"`));
    const { group, resource } = a.resource;
    if (group === '' && resource === 'pods') return admitPod(node, a, ctx, done);
    if (group === '' && resource === 'nodes') {
      // on create the name is the object's; a node may only write itself
      const requested = a.operation === 'CREATE' ? (a.object?.metadata.name ?? a.name) : a.name;
      return done(requested === node ? undefined : admissionForbidden(a, `node "${node}" is not allowed to modify node "${requested}"`));
    }
    if (group === '' && resource === 'serviceaccounts') return admitToken(node, a, ctx, done);
    if (group === 'coordination.k8s.io' && resource === 'leases' && a.operation === 'CREATE') {
      const lease = a.object as Lease | undefined;
      const ok = a.namespace === NODE_LEASE_NAMESPACE && lease?.metadata.name === node;
      return done(ok ? undefined : admissionForbidden(a, OTHER_NODE_LEASE));
    }
    done();
  },
};
