/**
 * Linearizable reads without a log entry: ReadIndex (Raft thesis 6.4, mirrors etcd-io/raft
 * read_only.go, ReadOnlySafe). The leader records its commit index for the request, broadcasts a
 * heartbeat carrying the request context, and once a majority has acknowledged that heartbeat it
 * knows it was still the leader when the request arrived: reads at or after that index are safe.
 */
import type { Message, NodeId } from './types.ts';

export interface ReadIndexStatus {
  /** The request context (req.entries[0].data). */
  ctx: string;
  req: Message;
  index: number;
  acks: Set<NodeId>;
}

export class ReadOnly {
  /**
   * Pending requests in arrival order (upstream keeps a map plus this queue). There are rarely more
   * than a few, so a search of the list beats a map that empties and refills after every read (V8
   * reallocates an emptied map's table).
   */
  private queue: ReadIndexStatus[] = [];

  /** Registers a read request (its context is req.entries[0].data) at the current commit index. */
  addRequest(index: number, req: Message): void {
    const ctx = req.entries[0]!.data;
    if (this.find(ctx) >= 0) return;
    this.queue.push({ ctx, req, index, acks: new Set() });
  }

  /** Records that `id` acknowledged the heartbeat for ctx; returns the acks so far. */
  recvAck(id: NodeId, ctx: string): Set<NodeId> | undefined {
    const i = this.find(ctx);
    if (i < 0) return undefined;
    const acks = this.queue[i]!.acks;
    acks.add(id);
    return acks;
  }

  /**
   * A quorum acknowledged ctx: it and every request queued before it are confirmed (an earlier
   * request is covered by a later heartbeat round). Returns them in order and forgets them.
   */
  advance(ctx: string): ReadIndexStatus[] {
    const i = this.find(ctx);
    if (i < 0) return [];
    const queue = this.queue;
    if (i === queue.length - 1) {
      this.queue = []; // the newest request (heartbeats carry it): all are confirmed
      return queue;
    }
    this.queue = queue.slice(i + 1);
    return queue.slice(0, i + 1);
  }

  /** The context of the newest pending request ("" if none): heartbeats carry it. */
  lastPendingRequestCtx(): string {
    return this.queue.length === 0 ? '' : this.queue[this.queue.length - 1]!.ctx;
  }

  /** Position of ctx in the queue, or -1; searched from the newest end, where acks usually point. */
  private find(ctx: string): number {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]!.ctx === ctx) return i;
    return -1;
  }
}
