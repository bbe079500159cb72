/**
 * Watches a SimCluster and checks Raft's safety properties (Raft paper 5.2, 5.3, 5.4, Figure 3)
 * as the run goes, recording the first violation:
 * - Election Safety: at most one leader per term.
 * - Log Matching: if two logs have an entry with the same index and term, the logs are identical
 *   up to that index (checked across all live members by checkLogMatching()).
 * - Leader Completeness: a new leader's log holds every entry already applied anywhere.
 * - State Machine Safety: no two members apply different entries at the same index, and each
 *   member applies indexes in order without gaps.
 */
import type { RawNode } from './rawnode.ts';
import type { SimCluster, SimClusterHooks } from './sim-cluster.ts';
import type { Entry, NodeId, Ready } from './types.ts';

export class SafetyChecker {
  /** The first violation seen, or null. */
  violation: string | null = null;
  /** term -> the member that became leader in it. */
  readonly leaders = new Map<number, NodeId>();
  /** index -> the entry applied there (by whoever applied it first). */
  readonly appliedAt = new Map<number, Entry>();
  /** member -> index of the last entry it applied. */
  readonly lastApplied = new Map<NodeId, number>();
  /** member -> every command it applied (for liveness checks). */
  readonly appliedData = new Map<NodeId, Set<string>>();
  leaderChanges = 0;

  private fail(what: string): void {
    this.violation ??= what;
  }

  /** Hooks to pass to SimCluster (chain them with your own if needed). */
  hooks(now: () => number): SimClusterHooks {
    return {
      onStart: (id, node) => this.lastApplied.set(id, node.raft.raftLog.applied),
      onApply: (id, e) => this.onApply(id, e, now()),
      onReady: (id, rd, node) => this.onReady(id, rd, node, now()),
    };
  }

  private onApply(id: NodeId, e: Entry, nowMs: number): void {
    const last = this.lastApplied.get(id) ?? 0;
    if (e.index !== last + 1)
      this.fail(`at ${nowMs} ms ${id} applied index ${e.index} after ${last} (gap or repeat)`);
    this.lastApplied.set(id, e.index);
    const prior = this.appliedAt.get(e.index);
    if (!prior) this.appliedAt.set(e.index, e);
    else if (prior.term !== e.term || prior.data !== e.data) {
      this.fail(
        `State Machine Safety: at ${nowMs} ms ${id} applied (term ${e.term}, "${e.data}") at index ${e.index}, but (term ${prior.term}, "${prior.data}") was applied there before`,
      );
    }
    let set = this.appliedData.get(id);
    if (!set) this.appliedData.set(id, (set = new Set()));
    set.add(e.data);
  }

  private onReady(id: NodeId, rd: Ready, node: RawNode, nowMs: number): void {
    if (rd.snapshot)
      this.lastApplied.set(id, Math.max(this.lastApplied.get(id) ?? 0, rd.snapshot.metadata.index));
    if (rd.softState?.raftState !== 'StateLeader') return;
    const term = node.raft.term;
    const other = this.leaders.get(term);
    if (other !== undefined && other !== id)
      this.fail(`Election Safety: at ${nowMs} ms both ${other} and ${id} lead term ${term}`);
    this.leaders.set(term, id);
    this.leaderChanges++;
    this.checkLeaderCompleteness(id, node, nowMs);
  }

  private checkLeaderCompleteness(id: NodeId, node: RawNode, nowMs: number): void {
    const log = node.raft.raftLog;
    const first = log.firstIndex();
    for (const [index, e] of this.appliedAt) {
      if (index < first) continue; // covered by the leader's snapshot
      const t = log.term(index);
      if (t !== e.term) {
        this.fail(
          `Leader Completeness: at ${nowMs} ms new leader ${id} (term ${node.raft.term}) lacks committed entry ${index} (term ${e.term}); has term ${t}`,
        );
        return;
      }
    }
  }

  /** Log Matching across every pair of live members. */
  checkLogMatching(cluster: SimCluster): void {
    const logs: [NodeId, Map<number, Entry>][] = [];
    for (const id of cluster.ids) {
      const node = cluster.node(id);
      if (!node) continue;
      const m = new Map<number, Entry>();
      for (const e of node.raft.raftLog.allEntries()) m.set(e.index, e);
      logs.push([id, m]);
    }
    for (let i = 0; i < logs.length; i++) {
      for (let j = i + 1; j < logs.length; j++) this.compareLogs(logs[i]!, logs[j]!);
    }
  }

  private compareLogs(
    [a, la]: [NodeId, Map<number, Entry>],
    [b, lb]: [NodeId, Map<number, Entry>],
  ): void {
    // Find the highest index both hold with the same term; everything below must be identical.
    let top = 0;
    for (const [index, e] of la) {
      const f = lb.get(index);
      if (f && f.term === e.term && index > top) top = index;
    }
    for (const [index, e] of la) {
      if (index > top) continue;
      const f = lb.get(index);
      if (f && (f.term !== e.term || f.data !== e.data)) {
        this.fail(
          `Log Matching: ${a} and ${b} agree at index ${top} but differ at ${index} (term ${e.term} vs ${f.term})`,
        );
        return;
      }
    }
  }
}
