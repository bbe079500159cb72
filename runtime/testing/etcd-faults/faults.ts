// The fault injector: at random moments, crash or restart a member, cut the network into two
// groups, block one direction between two members, heal, or change link quality (loss,
// duplication, reordering). Every choice comes from the schedule's RNG, so a seed replays exactly.
import type { Kernel, Rng } from '../../kernel/index.ts';
import type { EtcdCluster } from '../../etcd/index.ts';

export interface FaultLog {
  push(line: string): void;
}

export class FaultInjector {
  constructor(
    private readonly kernel: Kernel,
    private readonly cluster: EtcdCluster,
    private readonly rng: Rng,
    private readonly log: FaultLog,
    /** Client endpoints that may be cut off from a member. */
    private readonly clients: readonly string[] = [],
  ) {}

  /** Injects faults every 300..2000 ms until `untilMs`. */
  runUntil(untilMs: number): void {
    const loop = (): void => {
      if (this.kernel.now() >= untilMs) return;
      this.injectOne();
      this.kernel.setTimer(300 + this.rng.nextInt(1700), loop);
    };
    this.kernel.setTimer(500 + this.rng.nextInt(1000), loop);
  }

  /** Faults stop: heal the network, clean the links, restart every crashed member. */
  stopAll(): void {
    this.kernel.net.heal();
    this.kernel.net.configure({ lossRate: 0, duplicateRate: 0, reorderRate: 0 });
    for (const m of this.cluster.members) if (!this.cluster.isUp(m.name)) this.cluster.restart(m.name);
    this.log.push(`${this.kernel.now()}ms heal all, restart all, clean links`);
  }

  private injectOne(): void {
    const names = this.cluster.members.map((m) => m.process);
    const up = names.filter((n) => this.cluster.isUp(n));
    const down = names.filter((n) => !this.cluster.isUp(n));
    const pick = <T>(xs: T[]): T => xs[this.rng.nextInt(xs.length)]!;
    const roll = this.rng.nextInt(100);
    const at = `${this.kernel.now()}ms`;
    if (roll < 20 && up.length > 0) {
      // Prefer the leader now and then: that is where the interesting failures are.
      const victim = this.rng.chance(0.5) && this.cluster.leader() ? this.cluster.leader()! : pick(up);
      this.cluster.crash(victim);
      this.log.push(`${at} crash ${victim}`);
    } else if (roll < 40 && down.length > 0) {
      const back = pick(down);
      this.cluster.restart(back);
      this.log.push(`${at} restart ${back}`);
    } else if (roll < 55 && names.length > 1) {
      const shuffled = names.map((n, i) => ({ n, k: this.rng.nextInt(1000) * 8 + i })).sort((a, b) => a.k - b.k).map((x) => x.n);
      const cut = 1 + this.rng.nextInt(names.length - 1);
      const groups = [shuffled.slice(0, cut), shuffled.slice(cut)];
      this.kernel.net.partition(groups);
      this.log.push(`${at} partition ${groups.map((g) => g.join(',')).join(' | ')}`);
    } else if (roll < 65 && names.length > 1) {
      const from = pick(names);
      const to = pick(names.filter((n) => n !== from));
      this.kernel.net.block(from, to);
      this.log.push(`${at} block ${from} -> ${to}`);
    } else if (roll < 72 && this.clients.length > 0) {
      // A client loses its connection to one member (both ways): it must fail over, and a write
      // caught in the cut ends as "unknown".
      const client = pick([...this.clients]);
      const member = pick(names);
      this.kernel.net.block(client, member);
      this.kernel.net.block(member, client);
      this.log.push(`${at} cut ${client} <-> ${member}`);
    } else if (roll < 85) {
      this.kernel.net.heal();
      this.log.push(`${at} heal`);
    } else {
      const link = {
        lossRate: [0, 0.01, 0.05, 0.1][this.rng.nextInt(4)]!,
        duplicateRate: [0, 0.01, 0.05][this.rng.nextInt(3)]!,
        reorderRate: [0, 0.02, 0.1][this.rng.nextInt(3)]!,
      };
      this.kernel.net.configure(link);
      this.log.push(`${at} link loss=${link.lossRate} dup=${link.duplicateRate} reorder=${link.reorderRate}`);
    }
  }
}
