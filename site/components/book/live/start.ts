// Starts the page's live clusters. Nothing loads until a LiveCluster figure comes near the
// viewport: then the page's one runtime worker starts (shared by every live cluster on the page),
// the scenario boots, and the widgets replace the figure's static text. A share link in the
// address (#live=<id>.<inputs>) replays the reader's inputs into the cluster it names.
import * as Comlink from 'comlink';
import type { Scenario } from '../../../lib/scenario/types.ts';
import { ClusterView } from './cluster-view.ts';
import { controlBar } from './control-bar.ts';
import { LiveController } from './controller.ts';
import { h } from './dom.ts';
import { EventsView } from './events-view.ts';
import { LatencyView } from './latency-view.ts';
import { RaftView } from './raft-view.ts';
import type { LiveWidget, LiveWorkerApi, TryThis } from './protocol.ts';
import { SchedulerView } from './scheduler-view.ts';
import { clusterFromQuery, sharedInputs } from './share.ts';
import { LiveTerminal } from './terminal.ts';
import { TraceView } from './trace-view.ts';

interface FigureConfig {
  title: string;
  widgets: LiveWidget[];
  scenario: Scenario;
  tryThis: Exclude<TryThis, string>[];
}

let api: Comlink.Remote<LiveWorkerApi> | undefined;
const controllers: LiveController[] = [];

function workerApi(): Comlink.Remote<LiveWorkerApi> {
  if (api) return api;
  const worker = new Worker(new URL('../../../workers/live-cluster.worker.ts', import.meta.url), { type: 'module', name: 'live-cluster' });
  worker.addEventListener('error', (e) => {
    for (const c of controllers) c.fail(`The simulation stopped (${e.message || 'the worker could not run'}). Reload the page to start it again.`);
  });
  api = Comlink.wrap<LiveWorkerApi>(worker);
  return api;
}

async function mount(figure: HTMLElement, id: string): Promise<void> {
  const config = JSON.parse(figure.dataset['liveCluster']!) as FigureConfig;
  // a figure that allows it (the playground) takes its cluster from the page address
  if (figure.hasAttribute('data-live-url-cluster')) {
    const asked = clusterFromQuery(location.search);
    if (!asked.ok) {
      figure.querySelector('[data-live-body]')!.replaceChildren(h('p', { class: 'live-error', role: 'alert' }, `The address asks for a cluster this page cannot build: ${asked.error}.`));
      figure.setAttribute('data-live-state', 'failed');
      return;
    }
    config.scenario = { ...config.scenario, cluster: { ...config.scenario.cluster, ...asked.cluster } };
  }
  const body = figure.querySelector<HTMLElement>('[data-live-body]')!;
  const status = h('p', { class: 'live-booting', role: 'status' }, 'Starting the simulated cluster…');
  body.replaceChildren(status);
  figure.setAttribute('data-live-state', 'booting');
  const c = new LiveController(workerApi(), id, config.scenario);
  controllers.push(c);
  const views: { element: HTMLElement }[] = [];
  let terminal: LiveTerminal | undefined;
  for (const w of config.widgets) {
    const view = w === 'cluster' ? new ClusterView(c, config.title)
      : w === 'events' ? new EventsView(c, config.title)
        : w === 'trace' ? new TraceView(c, config.title)
          : w === 'scheduler' ? new SchedulerView(c, config.title)
            : w === 'latency' ? new LatencyView(c, config.title)
              : w === 'raft' ? new RaftView(c, config.title)
              : (terminal = new LiveTerminal(c, config.title));
    c.widgets.push(view);
    views.push(view);
  }
  const error = await c.open(sharedInputs(location.hash, id));
  if (error !== undefined) {
    body.replaceChildren(h('p', { class: 'live-error', role: 'alert' }, `This live cluster could not start: ${error}`));
    figure.setAttribute('data-live-state', 'failed');
    return;
  }
  body.replaceChildren(controlBar(c, config.title), h('div', { class: 'live-widgets' }, ...views.map((v) => v.element)));
  figure.setAttribute('data-live-state', 'ready');
  // "try this": a button per command that types it into the terminal
  const list = figure.querySelector('[data-live-try]');
  if (terminal && list) {
    const t = terminal;
    config.tryThis.forEach((item, i) => {
      const li = list.children[i];
      if (!li) return;
      li.append(' ', h('button', { type: 'button', class: 'live-button live-small', 'aria-label': `Type it: ${item.run}`, onclick: () => t.type(item.run) }, 'Type it'));
    });
  }
}

export function startLiveClusters(): void {
  const figures = [...document.querySelectorAll<HTMLElement>('[data-live-cluster]')].filter((f) => !f.hasAttribute('data-live-state'));
  if (figures.length === 0) return;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const figure = entry.target as HTMLElement;
      performance.mark(`live-cluster:${figure.id}:visible`);
      void mount(figure, figure.id);
    }
  }, { rootMargin: '300px 0px' });
  figures.forEach((f, i) => {
    f.id ||= `live-${i + 1}`;
    f.setAttribute('data-live-state', 'waiting');
    observer.observe(f);
  });
}
