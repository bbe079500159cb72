// The shared control bar of a live cluster: simulated time, run/pause, speed, step buttons,
// the timeline (rewind by replaying the seed and the reader's inputs), restart and share.
import type { LiveController, Speed } from './controller.ts';
import { formatSimTime, h, setAttr, setText } from './dom.ts';
import { shareUrl } from './share.ts';

export function controlBar(c: LiveController, label: string): HTMLElement {
  const time = h('span', { class: 'live-time', 'aria-live': 'off' });
  const status = h('span', { class: 'live-visually-hidden', role: 'status' });
  const play = h('button', { type: 'button', class: 'live-button live-play', 'aria-pressed': 'false', onclick: () => c.setRunning(!c.state.running) }, 'Run');
  const speed = h('select', { class: 'live-select', 'aria-label': `Speed of simulated time (${label})`, onchange: () => {
    const v = speed.value;
    c.setSpeed(v === 'max' ? 'max' : (Number(v) as Speed));
  } },
  h('option', { value: '1' }, '1×'), h('option', { value: '10', selected: true }, '10×'), h('option', { value: '100' }, '100×'), h('option', { value: 'max' }, 'As fast as possible'));
  // the accessible name starts with the visible text (WCAG 2.5.3 label in name)
  const step = (text: string, title: string, fn: () => void) => h('button', { type: 'button', class: 'live-button', title, 'aria-label': `${text}: ${title}`, onclick: fn }, text);
  const steps = h('span', { class: 'live-steps', role: 'group', 'aria-label': 'Step simulated time' },
    step('Next event', 'run the next event of the simulation', () => void c.advance(60_000, true)),
    step('+100 ms', 'advance 100 milliseconds of simulated time', () => void c.advance(100)),
    step('+1 s', 'advance 1 second of simulated time', () => void c.advance(1_000)),
    step('+10 s', 'advance 10 seconds of simulated time', () => void c.advance(10_000)));
  const timeline = h('input', { type: 'range', class: 'live-timeline', min: '0', max: '0', step: '100', value: '0', 'aria-label': 'Timeline: rewind to an earlier simulated time' });
  timeline.addEventListener('change', () => void c.rewindTo(Number(timeline.value)));
  const restart = h('button', { type: 'button', class: 'live-button', onclick: () => void c.restart() }, 'Restart');
  const share = h('button', { type: 'button', class: 'live-button', onclick: async () => {
    const inputs = (await c.inputs()) ?? [];
    const url = shareUrl(location.href, c.id, inputs);
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url);
      setText(status, 'Link copied: it opens this cluster with your commands replayed.');
    } catch {
      setText(status, 'The address bar now holds a link that opens this cluster with your commands replayed.');
    }
  } }, 'Share');

  c.onState((s) => {
    setText(time, `t = ${formatSimTime(s.nowMs)}`);
    setText(play, s.running ? 'Pause' : 'Run');
    setAttr(play, 'aria-pressed', String(s.running));
    timeline.min = String(s.bootedAtMs);
    timeline.max = String(Math.max(s.horizonMs, s.bootedAtMs));
    if (document.activeElement !== timeline) timeline.value = String(s.nowMs);
    setAttr(timeline, 'aria-valuetext', `${formatSimTime(s.nowMs)} of ${formatSimTime(s.horizonMs)}`);
    for (const b of [play, restart, share, ...steps.querySelectorAll('button')]) (b as HTMLButtonElement).disabled = s.busy;
  });

  return h('div', { class: 'live-controls', role: 'group', 'aria-label': `Simulated time of ${label}` },
    h('span', { class: 'live-clock' }, h('span', { class: 'live-clock-label' }, 'Simulated time'), time),
    play, speed, steps, timeline, restart, share, status);
}
