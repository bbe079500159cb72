// The event stream: the cluster's Events as `kubectl get events -w` shows them, as a live table
// (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE), newest at the bottom, filterable by text and type.
// Warnings are announced politely, at most every few seconds; the table itself is the text alternative.
import type { EventSnapshot } from '../../../../runtime/index.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import type { LiveView } from './protocol.ts';
import { h, reconcile, setText, shortAge } from './dom.ts';

const ROWS_SHOWN = 150;
const ANNOUNCE_EVERY_MS = 5_000;

export class EventsView implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly filter: HTMLInputElement;
  private readonly type: HTMLSelectElement;
  private readonly count: HTMLElement;
  private readonly announcer: HTMLElement;
  private readonly scroller: HTMLElement;
  private pendingWarnings: EventSnapshot[] = [];
  private lastAnnounceWall = 0;
  private nowMs = 0;

  constructor(private readonly c: LiveController, label: string) {
    const id = `${c.id}-events`;
    this.filter = h('input', { id: `${id}-filter`, type: 'search', class: 'live-input', placeholder: 'pod/web, Scheduled, worker-1…', oninput: () => this.redraw() });
    this.type = h('select', { id: `${id}-type`, class: 'live-select', onchange: () => this.redraw() },
      h('option', { value: '' }, 'All types'), h('option', { value: 'Normal' }, 'Normal'), h('option', { value: 'Warning' }, 'Warning'));
    this.count = h('span', { class: 'live-count' });
    this.body = h('tbody');
    this.announcer = h('p', { class: 'live-visually-hidden', role: 'status' });
    this.scroller = h('div', { class: 'live-table-wrap live-events-scroll', tabindex: '0', role: 'region', 'aria-label': `Events (${label})` },
      h('table', { class: 'live-table live-events-table' },
        h('caption', { class: 'live-visually-hidden' }, 'Cluster events, oldest first'),
        h('thead', {}, h('tr', {}, ...['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'].map((t) => h('th', { scope: 'col' }, t)))),
        this.body));
    this.element = h('section', { class: 'live-events', 'aria-label': `Event stream: ${label}` },
      h('div', { class: 'live-events-bar' },
        h('label', { for: `${id}-filter` }, 'Filter'), this.filter,
        h('label', { for: `${id}-type`, class: 'live-visually-hidden' }, 'Event type'), this.type, this.count),
      this.scroller, this.announcer);
  }

  reset(): void {
    this.body.replaceChildren();
    this.pendingWarnings = [];
  }

  fail(message: string): void {
    this.element.append(h('p', { class: 'live-error', role: 'alert' }, message));
  }

  render(_view: LiveView, fresh: readonly EventSnapshot[], nowMs: number): void {
    this.nowMs = nowMs;
    if (fresh.length > 0 || this.body.children.length === 0) this.redraw();
    else this.refreshAges();
    this.pendingWarnings.push(...fresh.filter((e) => e.type === 'Warning'));
    const wall = performance.now();
    if (this.pendingWarnings.length > 0 && wall - this.lastAnnounceWall > ANNOUNCE_EVERY_MS) {
      const w = this.pendingWarnings;
      this.pendingWarnings = [];
      this.lastAnnounceWall = wall;
      setText(this.announcer, `${w.length} warning event${w.length > 1 ? 's' : ''}: ${w.slice(-3).map((e) => `${e.reason} on ${e.object}`).join('; ')}`);
    }
  }

  private matches(e: EventSnapshot): boolean {
    const type = this.type.value;
    if (type && e.type !== type) return false;
    const words = this.filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const text = `${e.namespace} ${e.type} ${e.reason} ${e.object} ${e.message}`.toLowerCase();
    return words.every((w) => text.includes(w));
  }

  private redraw(): void {
    const shown = this.c.events.filter((e) => this.matches(e)).slice(-ROWS_SHOWN);
    // read the layout once, before writing: whether the reader is following the newest rows
    const atBottom = this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < 24;
    reconcile(this.body, shown, (e) => String(e.resourceVersion), () => this.row(), (el, e) => this.update(el, e));
    setText(this.count, `${shown.length} of ${this.c.events.length} events`);
    if (atBottom) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  private refreshAges(): void {
    for (const row of this.body.children) {
      const seen = Number((row as HTMLElement).dataset['seen']);
      setText(row.firstElementChild!, shortAge(this.nowMs - seen));
    }
  }

  private row(): HTMLElement {
    return h('tr', {}, h('td'), h('td'), h('td'), h('td'), h('td'));
  }

  private update(el: HTMLElement, e: EventSnapshot): void {
    el.dataset['seen'] = String(e.lastSeenMs);
    el.dataset['type'] = e.type;
    const cells = el.children;
    setText(cells[0]!, shortAge(this.nowMs - e.lastSeenMs));
    setText(cells[1]!, e.type);
    setText(cells[2]!, e.reason);
    setText(cells[3]!, e.object);
    setText(cells[4]!, e.count > 1 ? `${e.message} (x${e.count})` : e.message);
  }
}
