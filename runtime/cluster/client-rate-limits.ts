// Each component's client-side rate limits (client-go rest.Config QPS / Burst) with upstream's
// v1.33 defaults, and ClusterOptions.clientRateLimits overriding them (as scale tests raise
// kube-controller-manager's --kube-api-qps / --kube-api-burst).
import type { ClientRateLimits } from '../client/index.ts';

export type RateLimitedComponent =
  | 'kube-controller-manager' | 'kube-scheduler' | 'kubelet' | 'kube-proxy' | 'cloud-controller-manager' | 'kubectl' | 'kindnet' | 'coredns';

/** Upstream's defaults, each where the component sets it. */
export const UPSTREAM_CLIENT_RATE_LIMITS: Readonly<Record<RateLimitedComponent, ClientRateLimits>> = {
  // pkg/controller/apis/config/v1alpha1/defaults.go SetDefaults_KubeControllerManagerConfiguration
  // (--kube-api-qps 20, --kube-api-burst 30), for every controller's own client (ClientOrDie)
  'kube-controller-manager': { qps: 20, burst: 30 },
  // pkg/scheduler/apis/config/v1/defaults.go: "Scheduler has an opinion about QPS/Burst" (clientConnection)
  'kube-scheduler': { qps: 50, burst: 100 },
  // pkg/kubelet/apis/config/v1beta1/defaults.go kubeAPIQPS / kubeAPIBurst (50 / 100 since v1.27)
  kubelet: { qps: 50, burst: 100 },
  // pkg/proxy/apis/config/v1alpha1/defaults.go clientConnection
  'kube-proxy': { qps: 5, burst: 10 },
  // staging/src/k8s.io/cloud-provider/config/v1alpha1/defaults.go SetDefaults_CloudControllerManagerConfiguration
  'cloud-controller-manager': { qps: 20, burst: 30 },
  // kubectl sets only discovery's limits (kubectl/pkg/cmd/cmd.go defaultConfigFlags:
  // WithDiscoveryBurst(300).WithDiscoveryQPS(50.0)); its other requests get client-go's
  // rest.DefaultQPS / DefaultBurst (staging/src/k8s.io/client-go/rest/config.go)
  kubectl: { qps: 5, burst: 10 },
  // kind's kindnetd builds rest.InClusterConfig() and sets neither: client-go's defaults
  kindnet: { qps: 5, burst: 10 },
  // CoreDNS's kubernetes plugin builds its client from the in-cluster config and sets neither
  coredns: { qps: 5, burst: 10 },
};

/** Every component's limits: upstream's, with the options' overrides (a missing burst keeps upstream's). */
export function resolveClientRateLimits(
  overrides: Partial<Record<RateLimitedComponent, Partial<ClientRateLimits>>> = {},
): Record<RateLimitedComponent, ClientRateLimits> {
  const out = { ...UPSTREAM_CLIENT_RATE_LIMITS } as Record<RateLimitedComponent, ClientRateLimits>;
  for (const [component, o] of Object.entries(overrides) as [RateLimitedComponent, Partial<ClientRateLimits> | undefined][]) {
    const base = UPSTREAM_CLIENT_RATE_LIMITS[component];
    if (!base) throw new Error(`createCluster: clientRateLimits has no component "${component}" (known: ${Object.keys(UPSTREAM_CLIENT_RATE_LIMITS).join(', ')})`);
    const limits = { qps: o?.qps ?? base.qps, burst: o?.burst ?? base.burst };
    if (!Number.isFinite(limits.qps)) throw new Error(`createCluster: clientRateLimits["${component}"].qps must be a number (got ${String(limits.qps)})`);
    if (limits.qps > 0 && (!Number.isInteger(limits.burst) || limits.burst < 1)) {
      throw new Error(`createCluster: clientRateLimits["${component}"].burst must be an integer of at least 1 (got ${String(limits.burst)})`);
    }
    out[component] = limits;
  }
  return out;
}
