// NamespaceLifecycle: no new objects in a namespace that does not exist or is being deleted, and
// the system namespaces can never be deleted.
// mirrors staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go
import { newForbidden, newNotFound, type Namespace } from '../../../api/index.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionPlugin } from '../types.ts';

export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  validate(a, ctx, done) {
    const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces';
    if (isNamespace && a.operation === 'DELETE' && IMMORTAL_NAMESPACES.includes(a.name)) {
      return done(newForbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted'));
    }
    if (isNamespace || !a.resource.namespaced || a.operation !== 'CREATE' || !a.namespace) return done();
    const check = (ns: Namespace | undefined): void => {
      if (!ns) return done(newNotFound({ group: '', resource: 'namespaces' }, a.namespace!));
      if (ns.status?.phase === 'Terminating') {
        return done(admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`));
      }
      done();
    };
    const cached = ctx.cached('', 'namespaces', undefined, a.namespace) as Namespace | undefined;
    if (cached) return check(cached);
    // not in the cache yet: it may have been created a moment ago (lifecycle's live lookup)
    ctx.liveGet('', 'namespaces', undefined, a.namespace, (obj, err) => (err ? done(err) : check(obj as Namespace | undefined)));
  },
};
