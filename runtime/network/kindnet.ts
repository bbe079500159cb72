// kind's CNI agent (kindnetd) and each node's CNI configuration directory, /etc/cni/net.d.
// The container runtime reports NetworkReady=false until a network config file is there
// (containerd's CRI plugin: "cni plugin not initialized"), and the kubelet keeps the node NotReady
// and runs no pod that needs the pod network until then. kindnetd writes 10-kindnet.conflist (a
// ptp plugin with host-local IPAM over the node's podCIDR, plus portmap) when it starts, as
// kind's images/kindnetd/cmd/kindnetd/cni.go does. The directory is on the node's disk: the file
// outlives kindnetd and a reboot of the machine.
import type { Kernel } from '../kernel/index.ts';
import { ContainerProgram } from './container-program.ts';

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
  podCIDR: string;
  configs: CniConfigDirs;
  /** Process name (default kindnet-<node>). */
  processName?: string;
}

/** kindnetd as the program of the node's kindnet containers: call follow(runtime) with the node's container runtime. */
export function kindnetProgram(kernel: Kernel, o: KindnetOptions): ContainerProgram {
  return new ContainerProgram(kernel, {
    processName: o.processName ?? `kindnet-${o.nodeName}`,
    imageRepo: KINDNET_IMAGE_REPO,
    main: (ctx) => {
      o.configs.write(o.nodeName, KINDNET_CONFIG_FILE, kindnetConfList(o.podCIDR));
      ctx.trace('kindnet.cni-config', `${o.nodeName}: wrote ${CNI_CONFIG_DIR}/${KINDNET_CONFIG_FILE} (ptp, host-local ${o.podCIDR})`);
    },
  });
}
