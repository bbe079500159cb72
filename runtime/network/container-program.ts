// A node program that lives in a container: its process runs exactly while a container of its image
// runs in the node's container runtime. kube-proxy and kindnet are DaemonSet pods: the kubelet
// starts their containers, and the program inside starts with the container (informers, watches,
// timers), and dies with it (pod deleted, kill -9, the machine stopped). Whatever the program wrote
// outside its memory (iptables rules, a CNI config file) stays after it dies, as on a real node.
import type { Kernel, ProcessMain } from '../kernel/index.ts';

/** What the program sees of a node's container runtime (runtime/cri ContainerRuntime fits it). */
export interface ContainerRuntimeView {
  listContainers(): readonly { id: string; imageRef: string; state: string }[];
  onContainersChanged(listener: () => void): void;
  killContainerProcess(id: string): boolean;
}

export interface ContainerProgramOptions {
  /** The kernel process of the program on this node (kube-proxy-<node>). */
  processName: string;
  /** The image repository whose containers run the program (registry.k8s.io/kube-proxy). */
  imageRepo: string;
  /** The program: what starts in each container. */
  main: ProcessMain;
}

/** `docker.io/kindest/kindnetd:v1` and `repo@sha256:...` -> their repository. */
export function imageRepoOf(imageRef: string): string {
  const at = imageRef.indexOf('@');
  if (at >= 0) return imageRef.slice(0, at);
  const colon = imageRef.lastIndexOf(':');
  return colon > imageRef.lastIndexOf('/') ? imageRef.slice(0, colon) : imageRef;
}

export class ContainerProgram {
  private runtime: ContainerRuntimeView | undefined;
  /** The container the running process belongs to. */
  private owner: string | undefined;

  constructor(private readonly kernel: Kernel, private readonly o: ContainerProgramOptions) {}

  get processName(): string {
    return this.o.processName;
  }

  /** True while the program's process runs. */
  get running(): boolean {
    return this.kernel.process(this.o.processName)?.up === true;
  }

  /** Follows a node's container runtime: the first one, and the fresh one a rebooted machine gets. */
  follow(runtime: ContainerRuntimeView): void {
    this.runtime = runtime;
    runtime.onContainersChanged(() => {
      if (this.runtime === runtime) this.reconcile();
    });
    this.reconcile();
  }

  /** kill -9 of the program: its containers' processes die; the kubelet restarts them as their restart policy says. */
  kill(): void {
    for (const c of this.containers()) this.runtime?.killContainerProcess(c.id);
    this.reconcile();
  }

  /**
   * Starts the process when a container of the program runs, stops it when none does; a process
   * whose container went away while another one runs starts afresh in that one.
   */
  reconcile(): void {
    const ids = this.containers().map((c) => c.id);
    const process = this.kernel.process(this.o.processName);
    if (this.owner !== undefined && ids.includes(this.owner) && process?.up) return;
    this.owner = ids[0];
    if (process?.up) process.crash();
    if (this.owner === undefined) return;
    if (process) process.start();
    else this.kernel.spawn(this.o.processName, this.o.main);
  }

  private containers(): { id: string }[] {
    return (this.runtime?.listContainers() ?? []).filter((c) => c.state === 'running' && imageRepoOf(c.imageRef) === this.o.imageRepo);
  }
}
