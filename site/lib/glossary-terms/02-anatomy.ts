// Glossary terms introduced by chapter 2 (content/02-anatomy.mdx).
import type { GlossaryEntry } from '../glossary.ts';

const anatomy = (anchor: string) => ({ chapter: '02-anatomy', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'control-plane-node',
    term: 'Control-plane node',
    definition:
      'A machine that runs control-plane components (on kubeadm clusters: an etcd member, an API server, a scheduler and a controller manager as static pods). It is a Node with a kubelet like any other, labelled `node-role.kubernetes.io/control-plane` and tainted `node-role.kubernetes.io/control-plane:NoSchedule` so that ordinary Pods stay off it.',
    see: [anatomy('control-plane-nodes-and-worker-nodes'), anatomy('the-control-plane-taint')],
  },
  {
    id: 'worker-node',
    term: 'Worker node',
    definition:
      'A machine that runs the cluster’s workloads. It runs the node components (kubelet, container runtime, kube-proxy, a CNI plugin) and no control-plane component.',
    see: [anatomy('control-plane-nodes-and-worker-nodes'), anatomy('the-node-components')],
  },
  {
    id: 'cloud-controller-manager',
    term: 'Cloud controller manager',
    definition:
      'The control-plane component that holds the controllers needing a cloud provider’s API: it initializes new Nodes (provider ID, zone labels, addresses), removes Nodes whose machine is gone, and provisions load balancers for `type: LoadBalancer` Services. It runs only when the cluster has a cloud provider, and managed services run it for you.',
    see: [anatomy('the-control-plane-components'), anatomy('a-hidden-control-plane-eks-gke-and-aks')],
  },
  {
    id: 'kube-system',
    term: 'kube-system',
    definition:
      'The namespace for the cluster’s own Pods and objects: on kubeadm clusters the control-plane mirror pods, the kube-proxy and CNI DaemonSets, CoreDNS, and the leader-election Leases of the scheduler and controller managers.',
    see: [anatomy('reading-kube-system')],
  },
  {
    id: 'static-pod',
    term: 'Static pod',
    definition:
      'A Pod that a kubelet runs from a manifest file in its `staticPodPath` (kubeadm: `/etc/kubernetes/manifests`) instead of from the API. kubeadm runs etcd, the API server, the scheduler and the controller manager this way, so they can start before any API server exists.',
    see: [anatomy('static-pods-and-mirror-pods')],
  },
  {
    id: 'mirror-pod',
    term: 'Mirror pod',
    definition:
      'The read-only object a kubelet creates in the API for each of its static pods, named `<pod>-<node>`, annotated `kubernetes.io/config.mirror` and owned by the Node. Deleting it stops nothing: the kubelet creates it again.',
    see: [anatomy('static-pods-and-mirror-pods')],
  },
  {
    id: 'managed-kubernetes',
    term: 'Managed Kubernetes',
    definition:
      'A service such as EKS, GKE or AKS where the provider runs the control plane (API servers, etcd, scheduler, controller managers, cloud controller manager) out of sight. You get an API endpoint and only your worker nodes appear as Node objects.',
    see: [anatomy('a-hidden-control-plane-eks-gke-and-aks')],
  },
];
