// TaintNodesByCondition: a new Node starts tainted node.kubernetes.io/not-ready:NoSchedule, so no
// pod is scheduled onto it before its kubelet reports Ready; the node lifecycle controller removes
// the taint once it is. mirrors plugin/pkg/admission/nodetaint/admission.go (creates only).
import type { Node } from '../../../api/index.ts';
import type { AdmissionPlugin } from '../types.ts';

const NOT_READY = 'node.kubernetes.io/not-ready';

export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  admit(a, _ctx, done) {
    if (a.operation !== 'CREATE' || a.subresource || a.resource.group !== '' || a.resource.resource !== 'nodes') return done();
    const node = a.object as Node | undefined;
    if (!node) return done();
    const taints = Array.isArray(node.spec?.taints) ? node.spec.taints : [];
    // addNotReadyTaint: MatchTaint compares key and effect only
    if (!taints.some((t) => t.key === NOT_READY && t.effect === 'NoSchedule')) {
      node.spec = { ...node.spec, taints: [...taints, { key: NOT_READY, effect: 'NoSchedule' }] };
    }
    done();
  },
};
