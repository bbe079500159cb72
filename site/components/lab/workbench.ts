// The lab workbench in the page: restores the learner's code and last verdict, loads Monaco after
// first paint (the static highlighted starter is shown until then), auto-saves, and runs the
// examples or the hidden suite in the grading worker. Progress lives in site/lib/progress.
import { GradingClient } from '../../lib/grading/client.ts';
import type { SuiteKind } from '../../lib/grading/protocol.ts';
import type { LabResults } from '../../lib/grading/results.ts';
import { isTypingTarget } from '../../lib/keyboard/typing-target.ts';
import { debounce } from '../../lib/progress/debounce.ts';
import type { SaveResult } from '../../lib/progress/persist.ts';
import { ProgressStore } from '../../lib/progress/store.ts';
import type { LabEditor } from './monaco-editor.ts';
import { ResultsView } from './results-view.ts';
import { CLUSTER_SEED, runInCluster, type ClusterProgress, type ClusterRunnerResult } from './run-in-cluster-client.ts';
import { clusterSummary, renderClusterComparison } from './run-in-cluster-view.ts';

export interface WorkbenchData {
  slug: string;
  title: string;
  timeLimitMs: number;
  starter: string;
  hiddenNames: string[];
  exampleNames: string[];
  manifestProblem?: string;
}

const AUTOSAVE_DELAY_MS = 600;
const SUITE_LABEL: Record<SuiteKind, string> = { hidden: 'Grade', examples: 'Examples' };

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`invariant: the workbench page has #${id}`);
  return node as T;
}

export class Workbench {
  private editor: LabEditor | undefined;
  private readonly store = new ProgressStore();
  private readonly grading = new GradingClient();
  private readonly results = new ResultsView(byId('lab-summary'), byId<HTMLOListElement>('lab-results'), byId('lab-problem'));
  private readonly saveStatus = byId('lab-save-status');
  private readonly staticCode = byId('lab-static-code');
  private readonly buttons = [...document.querySelectorAll<HTMLButtonElement>('[data-lab-action]')];
  private code: string;
  private running = false;
  private readonly autosave = debounce((code: string) => this.store.saveLabCode(this.data.slug, code), AUTOSAVE_DELAY_MS);

  constructor(private readonly data: WorkbenchData) {
    this.code = this.store.lab(data.slug).code ?? data.starter;
    this.store.onSave((result) => this.showSave(result));
    if (this.store.loadProblem) this.showSave({ ok: false, error: this.store.loadProblem });
    if (this.code !== data.starter) this.staticCode.querySelector('code')!.textContent = this.code;
    this.showLastVerdict();
    this.bindControls();
  }

  private showSave(result: SaveResult): void {
    this.saveStatus.hidden = result.ok;
    this.saveStatus.textContent = result.ok ? '' : result.error;
  }

  private showLastVerdict(): void {
    const verdict = this.store.lab(this.data.slug).lastVerdict;
    if (this.data.manifestProblem) this.results.showMessage(`This lab cannot be graded in this build: ${this.data.manifestProblem}.`);
    else if (!verdict) this.results.showMessage('Not graded yet. Run the examples, or grade with Ctrl+Enter (Cmd+Enter on a Mac).');
    else {
      const { passed, failed } = verdict.summary;
      const when = new Date(verdict.at).toLocaleString();
      this.results.showMessage(`Last graded ${when}: ${verdict.passed ? 'passed' : 'not passed yet'} (${passed} passed, ${failed} failed of ${verdict.expectedTotal}).`);
    }
    document.body.dataset.labVerdict = verdict ? (verdict.passed ? 'pass' : 'fail') : 'none';
  }

  private bindControls(): void {
    for (const button of this.buttons) {
      button.addEventListener('click', () => void this.act(button.dataset.labAction!));
    }
    // Page shortcuts fire only outside anything the reader types in: inside the editor, Monaco owns
    // every key and the same shortcuts are editor commands (loadEditor), so its own bindings
    // (the find widget's Alt+Enter, for one) keep working.
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || isTypingTarget(event.target)) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault();
        void this.act('grade');
      } else if (event.altKey && !event.ctrlKey && !event.metaKey && this.hasAction('cluster')) {
        event.preventDefault();
        void this.act('cluster');
      }
    });
    addEventListener('pagehide', () => this.autosave.flush());
    document.addEventListener('visibilitychange', () => this.autosave.flush());
  }

  private hasAction(action: string): boolean {
    return this.buttons.some((button) => button.dataset.labAction === action);
  }

  private currentCode(): string {
    return this.editor?.getValue() ?? this.code;
  }

  async act(action: string): Promise<void> {
    if (action === 'examples') await this.run('examples');
    else if (action === 'grade') await this.run('hidden');
    else if (action === 'reset') this.resetToStarter();
    else if (action === 'solution') await this.showSolution();
    else if (action === 'cluster') await this.runInCluster();
  }

  /** Loads Monaco (called after first paint), then swaps it in for the static code. */
  async loadEditor(): Promise<void> {
    this.grading.warm(); // the grading worker boots on its own thread while Monaco loads
    const { createLabEditor } = await import('./monaco-editor.ts');
    const container = byId('lab-editor');
    this.editor = createLabEditor(container, this.data.slug, this.currentCode(), `${this.data.title}: your code (TypeScript)`);
    this.editor.onChange((code) => this.autosave(code));
    this.editor.onGradeShortcut(() => void this.act('grade'));
    if (this.hasAction('cluster')) this.editor.onRunShortcut(() => void this.act('cluster'));
    this.editor.onEscape(() => document.querySelector<HTMLButtonElement>('[data-lab-action="grade"]')?.focus());
    container.hidden = false;
    this.staticCode.hidden = true;
    (window as unknown as { __labEditor: unknown }).__labEditor = this.editor.editor;
    document.body.dataset.editorReady = 'true';
    performance.mark('lab-editor-ready');
  }

  private setRunning(running: boolean): void {
    this.running = running;
    for (const button of this.buttons) button.disabled = running;
    byId('lab-results-region').setAttribute('aria-busy', String(running));
  }

  private async run(suite: SuiteKind): Promise<void> {
    if (this.running) return;
    this.autosave.flush();
    const source = this.currentCode();
    if (this.editor === undefined) this.store.saveLabCode(this.data.slug, source);
    const expectedNames = suite === 'hidden' ? this.data.hiddenNames : this.data.exampleNames;
    const label = SUITE_LABEL[suite];
    this.setRunning(true);
    document.body.dataset.gradeState = 'running';
    let results: LabResults;
    try {
      results = await this.grading.grade({
        slug: this.data.slug,
        suite,
        source,
        timeLimitMs: this.data.timeLimitMs,
        expectedNames,
        onProgress: (tests, runningName) => this.results.showRunning(label, tests, runningName),
      });
    } finally {
      this.setRunning(false);
    }
    this.results.show(results, label);
    if (suite === 'hidden') {
      this.store.recordVerdict(this.data.slug, results);
      document.body.dataset.labVerdict = results.passed ? 'pass' : 'fail';
    }
    (window as unknown as { __labLastResults: LabResults }).__labLastResults = results;
    document.body.dataset.gradeState = 'done';
  }

  /** Your code and the reference in two live clusters on the same seed, shown side by side. */
  private async runInCluster(): Promise<void> {
    if (this.running) return;
    this.autosave.flush();
    const source = this.currentCode();
    const status = byId('lab-cluster-status');
    const problem = byId('lab-cluster-problem');
    const region = byId('lab-cluster-region');
    this.setRunning(true);
    region.setAttribute('aria-busy', 'true');
    document.body.dataset.clusterState = 'running';
    problem.hidden = true;
    status.textContent = `Running your code and the reference in two simulated clusters (seed ${CLUSTER_SEED})…`;
    // progress goes to a line outside the live region: announcing every step would drown the verdict
    const progress = byId('lab-cluster-progress');
    progress.hidden = false;
    const showProgress = (p: ClusterProgress) => {
      progress.textContent = `Your code: ${p.learner ?? 'starting'}. Reference: ${p.reference ?? 'starting'}.`;
    };
    let result: ClusterRunnerResult;
    try {
      result = await runInCluster(this.data.slug, source, showProgress);
    } finally {
      this.setRunning(false);
      region.setAttribute('aria-busy', 'false');
      progress.hidden = true;
    }
    this.showClusterResult(result, status, problem);
    (window as unknown as { __labClusterResult: ClusterRunnerResult }).__labClusterResult = result;
    document.body.dataset.clusterState = 'done';
  }

  private showClusterResult(result: ClusterRunnerResult, status: HTMLElement, problem: HTMLElement): void {
    const container = byId('lab-cluster-result');
    if (result.kind === 'compared') {
      status.textContent = clusterSummary(result.result);
      renderClusterComparison(container, result.result);
      return;
    }
    container.replaceChildren();
    status.textContent = result.kind === 'hung' ? 'Run in cluster: your code timed out.' : 'Run in cluster: your code could not run.';
    problem.textContent = result.message;
    problem.hidden = false;
  }

  private resetToStarter(): void {
    if (!confirm('Replace your code with the starter? Your current code will be lost.')) return;
    this.autosave.flush();
    this.store.clearLabCode(this.data.slug);
    this.code = this.data.starter;
    if (this.editor) this.editor.setValue(this.data.starter);
    else this.staticCode.querySelector('code')!.textContent = this.data.starter;
    this.store.clearLabCode(this.data.slug);
  }

  private async showSolution(): Promise<void> {
    const passed = this.store.lab(this.data.slug).passedAt !== undefined;
    if (!passed && !confirm('You have not passed this lab yet. Show the reference solution anyway?')) return;
    const panel = byId<HTMLDetailsElement>('lab-solution');
    const response = await fetch(`/labs/${this.data.slug}/solution.json`);
    const { solution } = (await response.json()) as { solution: string };
    panel.querySelector('code')!.textContent = solution;
    panel.hidden = false;
    panel.open = true;
    panel.querySelector('summary')!.focus();
  }
}

/** Boots the workbench; Monaco loads after first paint (rAF then a macrotask, not idle time). */
export function startWorkbench(): void {
  const data = JSON.parse(byId('lab-data').textContent!) as WorkbenchData;
  const workbench = new Workbench(data);
  requestAnimationFrame(() => setTimeout(() => void workbench.loadEditor(), 0));
}
