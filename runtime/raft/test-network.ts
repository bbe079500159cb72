/**
 * A tiny in-memory network of Raft state machines for paper-style unit tests (mirrors the
 * `network` helper of etcd-io/raft raft_test.go): messages are delivered immediately and in order,
 * breadth-first, until none are left; links can be cut and message kinds dropped by a filter.
 * No kernel, no time: tests drive elections with MsgHup and ticks explicitly.
 */
import { createRng } from '../kernel/index.ts';
import { Raft, type Config } from './raft.ts';
import { MemoryStorage } from './storage.ts';
import { newMessage, type Entry, type Message, type NodeId } from './types.ts';

export interface TestRaftOptions extends Partial<Omit<Config, 'id' | 'storage' | 'rng'>> {
  storage?: MemoryStorage;
  seed?: number;
}

/** A Raft with paper-friendly defaults: PreVote and CheckQuorum off unless asked for. */
export function newTestRaft(id: NodeId, voters: NodeId[], opts: TestRaftOptions = {}): Raft {
  const { storage, seed, ...rest } = opts;
  return new Raft({
    id,
    storage: storage ?? new MemoryStorage(voters),
    rng: createRng(seed ?? 1).fork(id),
    preVote: false,
    checkQuorum: false,
    ...rest,
  });
}

/** Storage holding `terms` as the log (entry i+1 has term terms[i]) for a cluster of `voters`. */
export function storageWithTerms(
  voters: NodeId[],
  terms: number[],
  hardTerm = terms[terms.length - 1] ?? 0,
): MemoryStorage {
  const s = new MemoryStorage(voters);
  s.append(
    terms.map((term, i): Entry => ({
      term,
      index: i + 1,
      type: 'EntryNormal',
      data: `t${term}i${i + 1}`,
    })),
  );
  s.setHardState({ term: hardTerm, vote: '', commit: 0 });
  return s;
}

export function hup(id: NodeId): Message {
  return newMessage({ type: 'MsgHup', from: id, to: id });
}

export function prop(id: NodeId, data: string): Message {
  return newMessage({
    type: 'MsgProp',
    from: id,
    to: id,
    entries: [{ term: 0, index: 0, type: 'EntryNormal', data }],
  });
}

/** Takes (and clears) the messages a node wants to send. */
export function readMessages(r: Raft): Message[] {
  const msgs = r.msgs;
  r.msgs = [];
  return msgs;
}

export class TestNetwork {
  readonly peers = new Map<NodeId, Raft>();
  /** Every message delivered, in order (for transcripts). */
  readonly delivered: Message[] = [];
  private readonly cut = new Set<string>();
  private filters: ((m: Message) => boolean)[] = [];

  constructor(rafts: Raft[]) {
    for (const r of rafts) this.peers.set(r.id, r);
  }

  peer(id: NodeId): Raft {
    const r = this.peers.get(id);
    if (!r) throw new Error(`no peer ${id}`);
    return r;
  }

  /** Steps msgs and everything they cause, until the network is quiet. */
  send(...msgs: Message[]): void {
    const queue = [...msgs];
    for (let guard = 0; queue.length > 0; guard++) {
      if (guard > 100_000) throw new Error('invariant violated: test network did not quiesce');
      const m = queue.shift()!;
      const p = this.peers.get(m.to);
      if (!p) continue;
      this.delivered.push(m);
      p.step(m);
      queue.push(...this.filter(readMessages(p)));
    }
  }

  /** Drops every message between a and b, both ways. */
  cutLink(a: NodeId, b: NodeId): void {
    this.cut.add(`${a}>${b}`);
    this.cut.add(`${b}>${a}`);
  }

  isolate(id: NodeId): void {
    for (const other of this.peers.keys()) if (other !== id) this.cutLink(id, other);
  }

  /** Drops every message for which `drop` returns true (until recover()). */
  dropIf(drop: (m: Message) => boolean): void {
    this.filters.push(drop);
  }

  recover(): void {
    this.cut.clear();
    this.filters = [];
  }

  private filter(msgs: Message[]): Message[] {
    return msgs.filter(
      (m) => !this.cut.has(`${m.from}>${m.to}`) && !this.filters.some((f) => f(m)),
    );
  }
}
