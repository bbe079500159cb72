// TEMPORARY ADAPTER: server-side defaulting of the fields a learner sees in `-o yaml`, until
// runtime/api exports per-kind defaulters (helper D). Mirrors pkg/apis/core/v1/defaults.go and
// pkg/apis/apps/v1/defaults.go for the most visible fields only.
import { defaultPriorityClass, type KubeObject, type PriorityClass } from '../../api/index.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const setDefault = (o: Obj, k: string, v: unknown): void => {
  if (o[k] === undefined) o[k] = v;
};

/** SetDefaults_Container: imagePullPolicy Always for :latest or untagged images, else IfNotPresent. */
function defaultContainer(c: unknown): void {
  if (!isObj(c)) return;
  if (typeof c.image === 'string') {
    const lastSegment = c.image.slice(c.image.lastIndexOf('/') + 1);
    const tagged = lastSegment.includes(':') && !c.image.endsWith(':latest');
    setDefault(c, 'imagePullPolicy', c.image.includes('@') || tagged ? 'IfNotPresent' : 'Always');
  }
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) setDefault(p, 'protocol', 'TCP');
}

export function defaultPodSpec(spec: unknown): void {
  if (!isObj(spec)) return;
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'enableServiceLinks', true);
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccount === undefined) spec.serviceAccount = spec.serviceAccountName;
  for (const list of [spec.containers, spec.initContainers]) if (Array.isArray(list)) list.forEach(defaultContainer);
}

function defaultPodTemplate(spec: Obj): void {
  if (isObj(spec.template)) defaultPodSpec(spec.template.spec);
}

const DEFAULTERS: Record<string, (o: Obj) => void> = {
  // spec.priority and spec.preemptionPolicy are not defaulted: the Priority admission plugin sets them
  Pod: (o) => defaultPodSpec(o.spec),
  PriorityClass: (o) => defaultPriorityClass(o as unknown as PriorityClass),
  Deployment: (o) => {
    if (!isObj(o.spec)) return;
    setDefault(o.spec, 'replicas', 1);
    setDefault(o.spec, 'strategy', { type: 'RollingUpdate' });
    const st = o.spec.strategy;
    if (isObj(st) && st.type === 'RollingUpdate') setDefault(st, 'rollingUpdate', { maxUnavailable: '25%', maxSurge: '25%' });
    setDefault(o.spec, 'revisionHistoryLimit', 10);
    setDefault(o.spec, 'progressDeadlineSeconds', 600);
    defaultPodTemplate(o.spec);
  },
  ReplicaSet: (o) => {
    if (!isObj(o.spec)) return;
    setDefault(o.spec, 'replicas', 1);
    defaultPodTemplate(o.spec);
  },
  DaemonSet: (o) => {
    if (!isObj(o.spec)) return;
    setDefault(o.spec, 'updateStrategy', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    setDefault(o.spec, 'revisionHistoryLimit', 10);
    defaultPodTemplate(o.spec);
  },
  // SetDefaults_Endpoints: a port without a protocol is TCP
  Endpoints: (o) => {
    for (const ss of Array.isArray(o.subsets) ? o.subsets.filter(isObj) : []) {
      for (const p of Array.isArray(ss.ports) ? ss.ports.filter(isObj) : []) setDefault(p, 'protocol', 'TCP');
    }
  },
  // SetDefaults_Service: and the traffic policies (Cluster), allocateLoadBalancerNodePorts, and
  // ClientIP affinity's 3-hour timeout, which `kubectl get svc -o yaml` shows on a real cluster
  Service: (o) => {
    if (!isObj(o.spec)) return;
    const spec = o.spec;
    setDefault(spec, 'sessionAffinity', 'None');
    if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
    if (spec.sessionAffinity === 'ClientIP') {
      const cfg = isObj(spec.sessionAffinityConfig) ? spec.sessionAffinityConfig : (spec.sessionAffinityConfig = {});
      const clientIP = isObj(cfg.clientIP) ? cfg.clientIP : (cfg.clientIP = {});
      setDefault(clientIP, 'timeoutSeconds', 10800);
    }
    setDefault(spec, 'type', 'ClusterIP');
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports) {
        if (!isObj(p)) continue;
        setDefault(p, 'protocol', 'TCP');
        if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
      }
    }
    const externallyAccessible = spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
    if (externallyAccessible) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') setDefault(spec, 'internalTrafficPolicy', 'Cluster');
    if (spec.type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
  },
};

/** Applies the defaults of the object's kind in place. */
export function applyDefaults(obj: KubeObject): void {
  DEFAULTERS[obj.kind ?? '']?.(obj as unknown as Obj);
}
