// kind's CNI agent (kindnetd) and each node's CNI configuration directory, /etc/cni/net.d.
// The container runtime reports NetworkReady=false until a network config file is there
// (containerd's CRI plugin: "cni plugin not initialized"), and the kubelet keeps the node NotReady
// and runs no pod that needs the pod network until then. kindnetd writes 10-kindnet.conflist (a
// ptp plugin with host-local IPAM over the node's podCIDR, plus portmap) once it has read its
// own Node, as kind's images/kindnetd/cmd/kindnetd/cni.go does, and programs the node's routes to
// the other nodes' podCIDRs (routes.ts). The directory is on the node's disk: the file outlives
// kindnetd and a reboot of the machine; the routes outlive kindnetd but not a reboot.
import type { Node } from '../api/index.ts';
import { SharedInformer, restListerWatcher, type RestClient } from '../client/index.ts';
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import { ContainerProgram } from './container-program.ts';
import type { ClusterNetwork } from './data-plane.ts';
import { routeLine } from './routes.ts';

export const CNI_CONFIG_DIR = '/etc/cni/net.d';
export const KINDNET_CONFIG_FILE = '10-kindnet.conflist';
/** The image repository of kind's kindnetd containers. */
export const KINDNET_IMAGE_REPO = 'docker.io/kindest/kindnetd';

/** Each node's /etc/cni/net.d: file name -> content. */
export class CniConfigDirs {
  private readonly dirs = new Map<string, Map<string, string>>();

  write(nodeName: string, file: string, content: string): void {
    let dir = this.dirs.get(nodeName);
    if (!dir) this.dirs.set(nodeName, (dir = new Map()));
    dir.set(file, content);
  }

  /** The file names in the node's directory, sorted as the runtime reads them (the first one wins). */
  files(nodeName: string): string[] {
    return [...(this.dirs.get(nodeName)?.keys() ?? [])].sort();
  }

  read(nodeName: string, file: string): string | undefined {
    return this.dirs.get(nodeName)?.get(file);
  }

  /** What the runtime checks for NetworkReady: a network configuration exists. */
  configured(nodeName: string): boolean {
    return this.files(nodeName).length > 0;
  }
}

/** The conflist kindnetd writes for a node. */
export function kindnetConfList(podCIDR: string): string {
  return `${JSON.stringify({
    cniVersion: '0.3.1',
    name: 'kindnet',
    plugins: [
      {
        type: 'ptp',
        ipMasq: false,
        ipam: { type: 'host-local', dataDir: '/run/cni-ipam-state', routes: [{ dst: '0.0.0.0/0' }], ranges: [[{ subnet: podCIDR }]] },
        mtu: 1500,
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }, null, '\t')}\n`;
}

export interface KindnetOptions {
  nodeName: string;
  /** The node's InternalIP (kindnetd's HOST_IP, from the downward API): how it finds its own Node. */
  nodeIP: string;
  configs: CniConfigDirs;
  /** The data plane whose routing tables kindnet programs. */
  network: ClusterNetwork;
  /** A client with kindnet's credentials (service account kube-system/kindnet). */
  restClient: RestClient;
  /**
   * Whether it routes the other nodes' podCIDRs (default true), watching every Node; false: it
   * watches its own Node only, for the CNI config (in big clusters, where the machines' gateway
   * routes the podCIDRs: N kindnets each caching N Nodes would cost the simulation O(N^2)).
   */
  routes?: boolean;
  /** Process name (default kindnet-<node>). */
  processName?: string;
}

/** kindnetd as the program of the node's kindnet containers: call follow(runtime) with the node's container runtime. */
export function kindnetProgram(kernel: Kernel, o: KindnetOptions): ContainerProgram {
  return new ContainerProgram(kernel, {
    processName: o.processName ?? `kindnet-${o.nodeName}`,
    imageRepo: KINDNET_IMAGE_REPO,
    main: (ctx) => runKindnet(ctx, o),
  });
}

/**
 * kindnetd's node reconciler (kind's images/kindnetd/cmd/kindnetd/main.go makeNodesReconciler): for
 * its own Node (the one whose InternalIP is HOST_IP) it writes the CNI config from the Node's
 * podCIDR, when that changed; for every other Node with an InternalIP and a podCIDR it ensures the
 * route to that podCIDR via that IP. kind's kindnetd lists Nodes every 10 s; this one watches them
 * (an informer, as aojea/kindnet does), so a new Node gets its route as soon as kindnet hears of it.
 */
function runKindnet(ctx: ProcessContext, o: KindnetOptions): void {
  const routes = o.routes ?? true;
  ctx.trace('kindnet.start', routes
    ? `${o.nodeName}: watching Nodes for the CNI config and the routes to the other nodes' podCIDRs`
    : `${o.nodeName}: watching its Node for the CNI config`);
  const nodes = new SharedInformer<Node>(ctx, restListerWatcher(o.restClient, {
    group: '', resource: 'nodes', ...(routes ? {} : { fieldSelector: `metadata.name=${o.nodeName}` }),
  }));
  const reconcile = (node: Node): void => {
    if (!ctx.isLive()) return;
    const podCIDR = node.spec?.podCIDR;
    const ip = internalIP(node);
    if (!ip || !podCIDR) return;
    if (ip === o.nodeIP) return writeConfig(ctx, o, podCIDR);
    const change = o.network.ensureRoute(o.nodeName, { dst: podCIDR, via: ip });
    if (change !== 'unchanged') ctx.trace('kindnet.route', `${o.nodeName}: ${change === 'added' ? 'added' : 'replaced'} route ${routeLine({ dst: podCIDR, via: ip })} (node ${node.metadata.name})`);
  };
  nodes.addEventHandler({ onAdd: reconcile, onUpdate: (_old, node) => reconcile(node) });
  nodes.start();
}

/** kindnetd's CNIConfigWriter: writes the conflist when its inputs (the podCIDR) differ from the file's. */
function writeConfig(ctx: ProcessContext, o: KindnetOptions, podCIDR: string): void {
  const content = kindnetConfList(podCIDR);
  if (o.configs.read(o.nodeName, KINDNET_CONFIG_FILE) === content) return;
  o.configs.write(o.nodeName, KINDNET_CONFIG_FILE, content);
  ctx.trace('kindnet.cni-config', `${o.nodeName}: wrote ${CNI_CONFIG_DIR}/${KINDNET_CONFIG_FILE} (ptp, host-local ${podCIDR})`);
}

function internalIP(node: Node): string | undefined {
  return node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
}
