// The Raft view: etcd's replicated log, member by member, side by side by index. Each column is a
// log index (the newest ones); each cell is the entry a member holds there, with its term; cells a
// member counts as committed are filled. So the reader sees what chapter 4 tells: a write becomes
// one entry on the leader, is copied to the followers, and is committed once a majority holds it;
// a member cut off stops getting entries, and after an election the terms of new entries go up.
// Under the table, the leader's newest entries say which request each one carries.
// Mirrors what `etcdctl endpoint status` reports (raft term, index, applied index) and the Raft
// paper's figure 6/7 presentation of logs (In Search of an Understandable Consensus Algorithm, 5.3).
import type { EtcdMemberSnapshot, RaftEntrySnapshot } from '../../../../runtime/index.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import type { LiveView } from './protocol.ts';
import { h, setText } from './dom.ts';

/** Columns shown: the newest indexes any member holds. */
const COLUMNS = 8;

export class RaftView implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly head: HTMLTableRowElement;
  private readonly body: HTMLTableSectionElement;
  private readonly entries: HTMLUListElement;
  private drawn = '';

  constructor(c: LiveController, label: string) {
    this.summary = h('p', { class: 'live-raft-summary' });
    this.head = h('tr');
    this.body = h('tbody');
    this.entries = h('ul', { class: 'live-raft-entries' });
    this.element = h('section', { class: 'live-raft', 'aria-label': `etcd Raft log: ${label}` },
      h('h4', { class: 'live-widget-title' }, 'etcd\u2019s Raft log'),
      this.summary,
      h('div', { class: 'live-table-wrap', tabindex: '0', role: 'region', 'aria-label': `Raft log per etcd member (${label})` },
        h('table', { class: 'live-table live-raft-table' },
          h('caption', { class: 'live-visually-hidden' }, 'The newest log entries of each etcd member, by index: the term of each entry, and whether the member counts it as committed'),
          h('thead', {}, this.head),
          this.body)),
      h('p', { class: 'live-raft-legend' },
        h('span', { class: 'live-raft-cell live-raft-committed', 'aria-hidden': 'true' }, 't3'), ' committed on that member · ',
        h('span', { class: 'live-raft-cell', 'aria-hidden': 'true' }, 't3'), ' held, not yet committed · ',
        h('span', { class: 'live-raft-cell live-raft-missing', 'aria-hidden': 'true' }, '\u2013'), ' not on that member'),
      h('details', { class: 'live-raft-details' },
        h('summary', {}, 'What the leader\u2019s newest entries carry'),
        this.entries));
    this.element.id = `${c.id}-raft`;
  }

  fail(message: string): void {
    this.element.append(h('p', { class: 'live-error', role: 'alert' }, message));
  }

  render(view: LiveView): void {
    const members = view.snapshot.etcd;
    const key = members.map((m) => `${m.process}:${m.role}:${m.term}:${m.commit}:${m.lastIndex}:${m.log.at(-1)?.term ?? 0}:${JSON.stringify(m.match ?? {})}`).join('|');
    if (key === this.drawn) return;
    this.drawn = key;
    const newest = Math.max(0, ...members.map((m) => m.lastIndex));
    const indexes = Array.from({ length: COLUMNS }, (_, i) => newest - COLUMNS + 1 + i).filter((i) => i >= 1);
    const leader = members.find((m) => m.role === 'leader');
    this.drawSummary(members, leader);
    this.head.replaceChildren(
      h('th', { scope: 'col' }, 'MEMBER'), h('th', { scope: 'col' }, 'ROLE'), h('th', { scope: 'col' }, 'TERM'),
      h('th', { scope: 'col' }, 'COMMIT'),
      ...indexes.map((i) => h('th', { scope: 'col', class: 'live-raft-index' }, String(i))),
      h('th', { scope: 'col' }, 'MATCH'));
    this.body.replaceChildren(...members.map((m) => this.row(m, indexes, leader)));
    this.entries.replaceChildren(...(leader?.log ?? []).slice().reverse().map((e) => this.entryItem(e, leader!)));
  }

  private drawSummary(members: readonly EtcdMemberSnapshot[], leader: EtcdMemberSnapshot | undefined): void {
    const up = members.filter((m) => m.up).length;
    const quorum = Math.floor(members.length / 2) + 1;
    setText(this.summary, leader
      ? `${leader.name} leads in term ${leader.term}; entries up to ${leader.commit} are committed (held by at least ${quorum} of ${members.length} members). ${up} of ${members.length} members are running.`
      : `No leader: ${up} of ${members.length} members are running, and a leader needs the votes of ${quorum}. Nothing new can be committed until one is elected.`);
  }

  private row(m: EtcdMemberSnapshot, indexes: readonly number[], leader: EtcdMemberSnapshot | undefined): HTMLTableRowElement {
    const byIndex = new Map(m.log.map((e) => [e.index, e]));
    const cells = indexes.map((i) => {
      if (!m.up) return h('td', { class: 'live-raft-col' }, h('span', { class: 'live-raft-cell live-raft-missing' }, '\u2013', h('span', { class: 'live-visually-hidden' }, ' (stopped)')));
      const e = byIndex.get(i);
      if (!e) {
        // older than the tail a snapshot carries, or not (yet) on this member
        const text = i <= m.lastIndex - m.log.length ? '\u00b7' : '\u2013';
        return h('td', { class: 'live-raft-col' }, h('span', { class: 'live-raft-cell live-raft-missing' }, text, h('span', { class: 'live-visually-hidden' }, i <= m.lastIndex ? ' (older)' : ' (not on this member)')));
      }
      const committed = e.index <= m.commit;
      return h('td', { class: 'live-raft-col' },
        h('span', { class: `live-raft-cell${committed ? ' live-raft-committed' : ''}`, title: `index ${e.index}, term ${e.term}: ${e.summary}` },
          `t${e.term}`, h('span', { class: 'live-visually-hidden' }, committed ? ' committed' : ' not committed')));
    });
    const match = leader?.match?.[m.process];
    return h('tr', { 'data-member': m.process },
      h('th', { scope: 'row' }, m.name),
      h('td', {}, m.role === 'leader' ? '\u2605 leader' : m.role),
      h('td', {}, m.up ? String(m.term) : '\u2013'),
      h('td', {}, m.up ? String(m.commit) : '\u2013'),
      ...cells,
      h('td', {}, match === undefined ? '\u2013' : String(match)));
  }

  private entryItem(e: RaftEntrySnapshot, leader: EtcdMemberSnapshot): HTMLLIElement {
    return h('li', {}, h('code', {}, String(e.index)), ` term ${e.term}${e.index <= leader.commit ? ', committed' : ''}: `, h('code', {}, e.summary));
  }
}
