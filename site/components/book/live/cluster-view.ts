// The cluster view: nodes (status, roles, taints, requested against allocatable CPU and memory)
// with their pods, the etcd members (Raft role, term, commit and applied index) and the
// components, each with buttons that cause the faults the chapters discuss. States are words and
// symbols, never colour alone; elements are updated in place, so a focused button keeps focus.
import type { ComponentSnapshot, EtcdMemberSnapshot, EventSnapshot, NodeSnapshot, PodSnapshot } from '../../../../runtime/index.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import type { LiveView } from './protocol.ts';
import { formatCpu, formatMemory, h, reconcile, setAttr, setText } from './dom.ts';

const PODS_SHOWN_PER_NODE = 24;

function podSymbol(p: PodSnapshot): { symbol: string; state: 'ok' | 'wait' | 'bad' | 'done' } {
  if (p.status === 'Completed' || p.phase === 'Succeeded') return { symbol: '■', state: 'done' };
  if (p.allReady && p.status === 'Running') return { symbol: '✓', state: 'ok' };
  if (/Err|BackOff|Failed|Error|OOMKilled|Evicted|Unknown/.test(p.status)) return { symbol: '✕', state: 'bad' };
  return { symbol: '…', state: 'wait' };
}

function nodeState(n: NodeSnapshot): { symbol: string; state: 'ok' | 'bad' | 'wait' } {
  if (!n.machineUp) return { symbol: '✕', state: 'bad' };
  if (n.status.startsWith('Ready')) return { symbol: '✓', state: 'ok' };
  return { symbol: '✕', state: 'bad' };
}

export class ClusterView implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly nodes: HTMLElement;
  private readonly unscheduled: HTMLElement;
  private readonly unscheduledList: HTMLElement;
  private readonly members: HTMLElement;
  private readonly membersSection: HTMLElement;
  private readonly components: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly announcer: HTMLElement;
  private isolated = new Set<string>();
  private lastAnnounced = '';

  constructor(private readonly c: LiveController, label: string) {
    this.notice = h('p', { class: 'live-notice', hidden: true });
    this.nodes = h('ul', { class: 'live-nodes', 'aria-label': 'Nodes' });
    this.unscheduledList = h('ul', { class: 'live-pods' });
    this.unscheduled = h('div', { class: 'live-unscheduled', hidden: true }, h('h4', {}, 'Pods on no node'), this.unscheduledList);
    this.members = h('tbody');
    this.membersSection = h('div', { class: 'live-members' },
      h('h4', {}, 'etcd members'),
      h('div', { class: 'live-table-wrap' }, h('table', { class: 'live-table' },
        h('caption', { class: 'live-visually-hidden' }, 'etcd members and their Raft state'),
        h('thead', {}, h('tr', {}, ...['Member', 'Raft role', 'Term', 'Commit', 'Applied', 'Faults'].map((t) => h('th', { scope: 'col' }, t)))),
        this.members)));
    this.components = h('tbody');
    this.announcer = h('p', { class: 'live-visually-hidden', role: 'status' });
    this.element = h('section', { class: 'live-cluster-view', 'aria-label': `Cluster view: ${label}` },
      this.notice, this.nodes, this.unscheduled, this.membersSection,
      h('details', { class: 'live-components' },
        h('summary', {}, 'Components'),
        h('div', { class: 'live-table-wrap' }, h('table', { class: 'live-table' },
          h('caption', { class: 'live-visually-hidden' }, 'Components and their state'),
          h('thead', {}, h('tr', {}, ...['Component', 'Machine', 'State', 'Faults'].map((t) => h('th', { scope: 'col' }, t)))),
          this.components))),
      this.announcer);
  }

  fail(message: string): void {
    this.notice.hidden = false;
    this.notice.setAttribute('role', 'alert');
    setText(this.notice, message);
  }

  render(view: LiveView, _events: readonly EventSnapshot[]): void {
    const snap = view.snapshot;
    this.isolated = new Set(view.isolated);
    this.notice.hidden = snap.apiAvailable && view.isolated.length === 0;
    setText(this.notice, !snap.apiAvailable
      ? 'No API server is answering: nodes and pods cannot be seen (what is shown is the last known state, if any).'
      : `Cut off from the rest of the cluster: ${view.isolated.join(', ')}.`);
    if (snap.apiAvailable) {
      const byNode = new Map<string, PodSnapshot[]>();
      const none: PodSnapshot[] = [];
      for (const p of snap.pods) {
        if (p.node) (byNode.get(p.node) ?? byNode.set(p.node, []).get(p.node)!).push(p);
        else none.push(p);
      }
      reconcile(this.nodes, snap.nodes, (n) => n.name, (n) => this.nodeCard(n), (el, n) => this.updateNode(el, n, byNode.get(n.name) ?? []));
      this.unscheduled.hidden = none.length === 0;
      reconcile(this.unscheduledList, none, (p) => `${p.namespace}/${p.name}`, (p) => this.podItem(p), (el, p) => this.updatePod(el, p));
    }
    this.membersSection.hidden = snap.etcd.length === 0;
    reconcile(this.members, snap.etcd, (m) => m.process, (m) => this.memberRow(m), (el, m) => this.updateMember(el, m));
    const shown = snap.components.filter((x) => x.kind !== 'etcd');
    reconcile(this.components, shown, (x) => x.name, (x) => this.componentRow(x), (el, x) => this.updateComponent(el, x));
    this.announce(snap.nodes, snap.etcd);
  }

  /** A polite summary when something important changes (node readiness, the etcd leader), not on every frame. */
  private announce(nodes: readonly NodeSnapshot[], etcd: readonly EtcdMemberSnapshot[]): void {
    const leader = etcd.find((m) => m.role === 'leader');
    const notReady = nodes.filter((n) => !n.status.startsWith('Ready')).map((n) => n.name);
    const text = `${notReady.length ? `Not ready: ${notReady.join(', ')}.` : 'All nodes Ready.'}${etcd.length ? ` etcd leader: ${leader ? leader.name : 'none'}.` : ''}`;
    if (text !== this.lastAnnounced) {
      if (this.lastAnnounced !== '') setText(this.announcer, text);
      this.lastAnnounced = text;
    }
  }

  // ---- nodes ----------------------------------------------------------------------------------------

  private nodeCard(n: NodeSnapshot): HTMLElement {
    const toggle = h('button', { type: 'button', class: 'live-button live-small', 'data-role': 'toggle' });
    toggle.addEventListener('click', () => {
      const up = toggle.dataset['up'] === 'true';
      void this.c.fault({ kind: up ? 'stopNode' : 'startNode', target: n.name });
    });
    const cut = h('button', { type: 'button', class: 'live-button live-small', 'data-role': 'cut' });
    cut.addEventListener('click', () => this.toggleIsolated(n.name));
    return h('li', { class: 'live-node' },
      h('div', { class: 'live-node-head' },
        h('span', { class: 'live-node-name' }, n.name),
        h('span', { class: 'live-tag', 'data-role': 'roles' }),
        h('span', { class: 'live-state', 'data-role': 'status' })),
      h('div', { class: 'live-node-resources' },
        h('label', { class: 'live-meter' }, h('span', { 'data-role': 'cpu-text' }), h('meter', { 'data-role': 'cpu', min: '0', max: '1', value: '0' })),
        h('label', { class: 'live-meter' }, h('span', { 'data-role': 'mem-text' }), h('meter', { 'data-role': 'mem', min: '0', max: '1', value: '0' }))),
      h('p', { class: 'live-taints', 'data-role': 'taints' }),
      h('ul', { class: 'live-pods', 'data-role': 'pods', 'aria-label': `Pods on ${n.name}` }),
      h('p', { class: 'live-more', 'data-role': 'more' }),
      h('div', { class: 'live-node-actions' }, toggle, cut));
  }

  private updateNode(el: HTMLElement, n: NodeSnapshot, pods: PodSnapshot[]): void {
    const q = (role: string) => el.querySelector(`[data-role="${role}"]`)!;
    setText(q('roles'), n.roles.length ? n.roles.join(', ') : 'worker');
    const st = nodeState(n);
    setText(q('status'), `${st.symbol} ${n.machineUp ? n.status : `${n.status}, machine stopped`}`);
    setAttr(q('status'), 'data-state', st.state);
    const cpuText = `CPU requested ${formatCpu(n.requested.milliCPU)} of ${formatCpu(n.allocatable.milliCPU)}`;
    const memText = `Memory requested ${formatMemory(n.requested.memoryBytes)} of ${formatMemory(n.allocatable.memoryBytes)}`;
    setText(q('cpu-text'), cpuText);
    setText(q('mem-text'), memText);
    (q('cpu') as HTMLMeterElement).value = n.allocatable.milliCPU ? Math.min(1, n.requested.milliCPU / n.allocatable.milliCPU) : 0;
    (q('mem') as HTMLMeterElement).value = n.allocatable.memoryBytes ? Math.min(1, n.requested.memoryBytes / n.allocatable.memoryBytes) : 0;
    const taints = n.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
    setText(q('taints'), taints.length ? `Taints: ${taints.join(', ')}` : 'No taints');
    const sorted = [...pods].sort((a, b) => (a.namespace === b.namespace ? a.name.localeCompare(b.name) : a.namespace === 'kube-system' ? 1 : -1));
    reconcile(q('pods'), sorted.slice(0, PODS_SHOWN_PER_NODE), (p) => `${p.namespace}/${p.name}`, (p) => this.podItem(p), (e, p) => this.updatePod(e, p));
    setText(q('more'), sorted.length > PODS_SHOWN_PER_NODE ? `and ${sorted.length - PODS_SHOWN_PER_NODE} more pods` : '');
    const toggle = q('toggle') as HTMLButtonElement;
    toggle.dataset['up'] = String(n.machineUp);
    setText(toggle, n.machineUp ? `Stop ${n.name}` : `Start ${n.name}`);
    const cut = q('cut') as HTMLButtonElement;
    setText(cut, this.isolated.has(n.name) ? `Reconnect ${n.name}` : `Cut ${n.name} off`);
  }

  private podItem(_p: PodSnapshot): HTMLElement {
    return h('li', { class: 'live-pod' }, h('span', { 'aria-hidden': 'true', 'data-role': 'symbol' }), h('span', { 'data-role': 'text' }));
  }

  private updatePod(el: HTMLElement, p: PodSnapshot): void {
    const { symbol, state } = podSymbol(p);
    setAttr(el, 'data-state', state);
    setText(el.querySelector('[data-role="symbol"]')!, symbol);
    const ns = p.namespace === 'default' ? '' : `${p.namespace}/`;
    setText(el.querySelector('[data-role="text"]')!, `${ns}${p.name} ${p.status} ${p.ready}${p.restarts ? `, ${p.restarts} restarts` : ''}`);
  }

  // ---- etcd members and components --------------------------------------------------------------------

  private toggleIsolated(name: string): void {
    const next = new Set(this.isolated);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    void this.c.fault({ kind: 'isolate', targets: [...next] });
  }

  private memberRow(m: EtcdMemberSnapshot): HTMLElement {
    const toggle = h('button', { type: 'button', class: 'live-button live-small', 'data-role': 'toggle' });
    toggle.addEventListener('click', () => void this.c.fault({ kind: toggle.dataset['up'] === 'true' ? 'stopComponent' : 'startComponent', target: m.process }));
    const cut = h('button', { type: 'button', class: 'live-button live-small', 'data-role': 'cut' });
    cut.addEventListener('click', () => this.toggleIsolated(m.process));
    return h('tr', {}, h('th', { scope: 'row' }, m.name), h('td', { 'data-role': 'role' }), h('td', { 'data-role': 'term' }),
      h('td', { 'data-role': 'commit' }), h('td', { 'data-role': 'applied' }), h('td', { class: 'live-actions' }, toggle, cut));
  }

  private updateMember(el: HTMLElement, m: EtcdMemberSnapshot): void {
    const q = (role: string) => el.querySelector(`[data-role="${role}"]`)!;
    setText(q('role'), m.role === 'leader' ? '★ leader' : m.role === 'stopped' ? '✕ stopped' : m.role);
    setText(q('term'), m.up ? String(m.term) : '–');
    setText(q('commit'), m.up ? String(m.commit) : '–');
    setText(q('applied'), m.up ? String(m.applied) : '–');
    const toggle = q('toggle') as HTMLButtonElement;
    toggle.dataset['up'] = String(m.up);
    setText(toggle, m.up ? 'Stop' : 'Start');
    setAttr(toggle, 'aria-label', `${m.up ? 'Stop' : 'Start'} etcd on ${m.name}`);
    const cut = q('cut') as HTMLButtonElement;
    const isolated = this.isolated.has(m.process);
    setText(cut, isolated ? 'Reconnect' : 'Cut off');
    setAttr(cut, 'aria-label', `${isolated ? 'Reconnect' : 'Cut off'} etcd on ${m.name}`);
  }

  private componentRow(x: ComponentSnapshot): HTMLElement {
    const toggle = h('button', { type: 'button', class: 'live-button live-small', 'data-role': 'toggle' });
    toggle.addEventListener('click', () => void this.c.fault({ kind: toggle.dataset['up'] === 'true' ? 'stopComponent' : 'startComponent', target: x.name }));
    return h('tr', {}, h('th', { scope: 'row' }, x.name), h('td', {}, x.machine ?? '–'), h('td', { 'data-role': 'state' }), h('td', { class: 'live-actions' }, toggle));
  }

  private updateComponent(el: HTMLElement, x: ComponentSnapshot): void {
    setText(el.querySelector('[data-role="state"]')!, `${x.up ? '✓ running' : '✕ stopped'}${x.leader ? ', ★ leader' : ''}`);
    const toggle = el.querySelector('[data-role="toggle"]') as HTMLButtonElement;
    toggle.dataset['up'] = String(x.up);
    setText(toggle, x.up ? 'Stop' : 'Start');
    setAttr(toggle, 'aria-label', `${x.up ? 'Stop' : 'Start'} ${x.name}`);
  }
}
