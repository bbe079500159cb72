// Renders grading results as an accessible list: a live summary line (announced by screen
// readers), then one item per test with its status, duration, message and an expected/actual
// line diff. Plain text only (textContent), so nothing from a test message is ever parsed as HTML.
import type { LabResults, TestResult } from '../../lib/grading/results.ts';
import { lineDiff } from '../../lib/grading/line-diff.ts';

const STATUS_LABEL: Record<TestResult['status'], string> = { pass: 'passed', fail: 'failed', timeout: 'timed out', skip: 'skipped' };
const STATUS_ICON: Record<TestResult['status'], string> = { pass: '✓', fail: '✗', timeout: '⧗', skip: '–' };

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderDiff(test: TestResult): HTMLElement | undefined {
  if (test.expected === undefined || test.actual === undefined) return undefined;
  const figure = element('figure', 'result-diff');
  figure.append(element('figcaption', 'result-diff-legend', '- expected   + actual'));
  const pre = element('pre', 'result-diff-lines');
  for (const line of lineDiff(test.expected, test.actual)) {
    const prefix = line.kind === 'same' ? '  ' : line.kind === 'expected' ? '- ' : '+ ';
    pre.append(element('span', `diff-${line.kind}`, `${prefix}${line.text}\n`));
  }
  figure.append(pre);
  return figure;
}

function renderTest(test: TestResult): HTMLLIElement {
  const item = element('li', `result result-${test.status}`);
  item.dataset.status = test.status;
  const head = element('div', 'result-head');
  head.append(
    element('span', 'result-icon', STATUS_ICON[test.status]),
    element('span', 'result-name', test.name),
    element('span', 'result-status', `${STATUS_LABEL[test.status]} · ${test.durationMs} ms`),
  );
  head.querySelector('.result-icon')!.setAttribute('aria-hidden', 'true');
  item.append(head);
  if (test.message) item.append(element('pre', 'result-message', test.message));
  const diff = renderDiff(test);
  if (diff) item.append(diff);
  return item;
}

export function summaryLine(results: LabResults, suiteLabel: string): string {
  const { passed, failed } = results.summary;
  const notRun = results.tests.filter((test) => test.status === 'skip').length;
  const head = results.passed ? `${suiteLabel}: passed.` : `${suiteLabel}: not passed yet.`;
  return `${head} ${passed} passed, ${failed} failed${notRun ? `, ${notRun} did not run` : ''}: ${passed + failed} of ${results.expectedTotal} tests ran.`;
}

export class ResultsView {
  constructor(
    private readonly summary: HTMLElement,
    private readonly list: HTMLOListElement,
    private readonly problem: HTMLElement,
  ) {}

  showRunning(label: string, tests: readonly TestResult[], runningName: string | undefined): void {
    this.summary.textContent = runningName ? `${label}: running "${runningName}"…` : `${label}: running…`;
    this.renderTests(tests);
    this.problem.hidden = true;
  }

  show(results: LabResults, label: string): void {
    this.summary.textContent = summaryLine(results, label);
    this.summary.dataset.verdict = results.passed ? 'pass' : 'fail';
    this.renderTests(results.tests);
    this.problem.hidden = results.error === undefined;
    this.problem.textContent = results.error ?? '';
  }

  showMessage(text: string): void {
    this.summary.textContent = text;
    delete this.summary.dataset.verdict;
  }

  private renderTests(tests: readonly TestResult[]): void {
    this.list.replaceChildren(...tests.map(renderTest));
  }
}
