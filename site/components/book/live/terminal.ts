// The live terminal: kubectl and etcdctl against the page's cluster. An accessible console rather
// than a terminal emulator: a labelled text input (history with the arrow keys, Tab completion),
// and an output log that screen readers announce politely, each command's output copyable.
// Watches (`-w`) follow the cluster for their 30 s window of simulated time and print what they saw.
import type { EventSnapshot } from '../../../../runtime/index.ts';
import { complete } from '../../../lib/live/completion.ts';
import type { LiveController, LiveWidgetView } from './controller.ts';
import type { LiveView } from './protocol.ts';
import { formatSimTime, h, setText } from './dom.ts';

const HELP = `This terminal runs kubectl and etcdctl against the simulated cluster above.
  kubectl get pods -o wide      kubectl describe node <name>    kubectl get events -w
  etcdctl member list -w table  etcdctl get /registry/ --prefix --keys-only
Keys: Up/Down for history, Tab to complete, Ctrl+L or "clear" to clear. The scenario's files
(for kubectl apply -f) are: `;

/** Output kept per terminal: the oldest entries go, so a long session stays light. */
const MAX_ENTRIES = 60;

export class LiveTerminal implements LiveWidgetView {
  readonly element: HTMLElement;
  private readonly output: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly hint: HTMLElement;
  private readonly history: string[] = [];
  private historyIndex = 0;
  private draft = '';
  private names = { nodes: [] as string[], pods: [] as string[] };
  private running = Promise.resolve();

  constructor(private readonly c: LiveController, label: string) {
    const inputId = `${c.id}-terminal-input`;
    this.output = h('div', { class: 'live-terminal-output', role: 'log', 'aria-label': `Terminal output (${label})`, tabindex: '0' });
    this.input = h('input', {
      id: inputId, class: 'live-terminal-input', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
      'aria-describedby': `${inputId}-hint`, placeholder: 'kubectl get pods',
    });
    this.hint = h('p', { id: `${inputId}-hint`, class: 'live-terminal-hint', role: 'status' }, 'Type a kubectl or etcdctl command and press Enter. Tab completes, Up and Down recall earlier commands.');
    const form = h('form', { class: 'live-terminal-form', onsubmit: (e: Event) => {
      e.preventDefault();
      this.submit();
    } },
    h('label', { for: inputId, class: 'live-terminal-prompt' }, h('span', { 'aria-hidden': 'true' }, '$'), h('span', { class: 'live-visually-hidden' }, 'Command')),
    this.input,
    h('button', { type: 'submit', class: 'live-button' }, 'Run'));
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.element = h('section', { class: 'live-terminal', 'aria-label': `Terminal: ${label}` }, this.output, form, this.hint);
  }

  /** Puts a command in the input, ready to run (the "try this" buttons). */
  type(line: string): void {
    this.input.value = line;
    this.input.focus();
    setText(this.hint, 'Press Enter to run it.');
  }

  render(view: LiveView, _events: readonly EventSnapshot[]): void {
    this.names = {
      nodes: view.snapshot.nodes.map((n) => n.name),
      pods: view.snapshot.pods.map((p) => p.name),
    };
  }

  fail(message: string): void {
    this.input.disabled = true;
    this.output.append(h('p', { class: 'live-error', role: 'alert' }, message));
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Tab' && !e.shiftKey && this.input.value.trim() !== '') {
      e.preventDefault();
      const r = complete(this.input.value, this.names);
      this.input.value = r.line;
      setText(this.hint, r.candidates.length > 0 ? `Completions: ${r.candidates.slice(0, 12).join('  ')}${r.candidates.length > 12 ? ` and ${r.candidates.length - 12} more` : ''}` : '');
    } else if (e.key === 'ArrowUp' && this.history.length > 0) {
      e.preventDefault();
      if (this.historyIndex === this.history.length) this.draft = this.input.value;
      this.historyIndex = Math.max(0, this.historyIndex - 1);
      this.input.value = this.history[this.historyIndex]!;
    } else if (e.key === 'ArrowDown' && this.historyIndex < this.history.length) {
      e.preventDefault();
      this.historyIndex++;
      this.input.value = this.historyIndex === this.history.length ? this.draft : this.history[this.historyIndex]!;
    } else if (e.key === 'l' && e.ctrlKey) {
      e.preventDefault();
      this.output.replaceChildren();
    }
  }

  private submit(): void {
    const line = this.input.value.trim();
    this.input.value = '';
    if (line === '') return;
    if (this.history.at(-1) !== line) this.history.push(line);
    this.historyIndex = this.history.length;
    // one command at a time, in the order typed
    this.running = this.running.then(() => this.run(line));
  }

  private async run(line: string): Promise<void> {
    if (line === 'clear') {
      this.output.replaceChildren();
      return;
    }
    if (line === 'help') {
      this.print(line, `${HELP}${Object.keys(this.c.scenario.files ?? {}).join(', ') || '(none)'}\n`, '', 0, undefined);
      return;
    }
    if (line === 'history') {
      this.print(line, this.history.map((l, i) => `${String(i + 1).padStart(4)}  ${l}`).join('\n') + '\n', '', 0, undefined);
      return;
    }
    setText(this.hint, `Running: ${line}`);
    const out = await this.c.command(line);
    if (!out) return;
    const took = out.endMs - out.startMs;
    this.print(line, out.stdout, out.stderr, out.exitCode, took >= 1000 ? `took ${formatSimTime(took)} of simulated time` : undefined);
    setText(this.hint, out.exitCode === 0 ? '' : `Exit code ${out.exitCode}.`);
  }

  private print(line: string, stdout: string, stderr: string, exitCode: number, note: string | undefined): void {
    const text = h('pre', { class: 'live-terminal-entry-text' },
      h('span', { class: 'live-terminal-cmd' }, h('span', { 'aria-hidden': 'true', class: 'live-terminal-dollar' }, '$ '), line), '\n',
      stdout ? h('span', {}, stdout) : undefined,
      stderr ? h('span', { class: 'live-terminal-stderr' }, stderr) : undefined,
      note ? h('span', { class: 'live-terminal-note' }, `# ${note}\n`) : undefined);
    const copy = h('button', { type: 'button', class: 'live-button live-copy', 'aria-label': `Copy the output of ${line}`, onclick: async () => {
      try {
        await navigator.clipboard.writeText(stdout + stderr);
        setText(copy, 'Copied');
      } catch {
        setText(copy, 'Select and copy');
      }
    } }, 'Copy');
    const entry = h('div', { class: `live-terminal-entry${exitCode !== 0 ? ' live-terminal-failed' : ''}` }, text, copy);
    this.output.append(entry);
    while (this.output.children.length > MAX_ENTRIES) this.output.firstElementChild!.remove();
    this.output.scrollTop = this.output.scrollHeight;
  }
}
