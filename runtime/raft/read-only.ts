/**
 * Linearizable reads without a log entry: ReadIndex (Raft thesis 6.4, mirrors etcd-io/raft
 * read_only.go, ReadOnlySafe). The leader records its commit index for the request, broadcasts a
 * heartbeat carrying the request context, and once a majority has acknowledged that heartbeat it
 * knows it was still the leader when the request arrived: reads at or after that index are safe.
 */
import type { Message, NodeId } from './types.ts';

export interface ReadIndexStatus {
  req: Message;
  index: number;
  acks: Set<NodeId>;
}

export class ReadOnly {
  private readonly pending = new Map<string, ReadIndexStatus>();
  private queue: string[] = [];

  /** Registers a read request (its context is req.entries[0].data) at the current commit index. */
  addRequest(index: number, req: Message): void {
    const ctx = req.entries[0]!.data;
    if (this.pending.has(ctx)) return;
    this.pending.set(ctx, { req, index, acks: new Set() });
    this.queue.push(ctx);
  }

  /** Records that `id` acknowledged the heartbeat for ctx; returns the acks so far. */
  recvAck(id: NodeId, ctx: string): Set<NodeId> | undefined {
    const rs = this.pending.get(ctx);
    if (!rs) return undefined;
    rs.acks.add(id);
    return rs.acks;
  }

  /**
   * A quorum acknowledged ctx: it and every request queued before it are confirmed (an earlier
   * request is covered by a later heartbeat round). Returns them in order and forgets them.
   */
  advance(ctx: string): ReadIndexStatus[] {
    const i = this.queue.indexOf(ctx);
    if (i < 0) return [];
    const done = this.queue.slice(0, i + 1);
    this.queue = this.queue.slice(i + 1);
    const out: ReadIndexStatus[] = [];
    for (const c of done) {
      const rs = this.pending.get(c);
      if (!rs)
        throw new Error(`invariant violated: cannot find the pending read index request for ${c}`);
      this.pending.delete(c);
      out.push(rs);
    }
    return out;
  }

  /** The context of the newest pending request ("" if none): heartbeats carry it. */
  lastPendingRequestCtx(): string {
    return this.queue.length === 0 ? '' : this.queue[this.queue.length - 1]!;
  }
}
