// Renders a "Run in cluster" comparison: the report a lab's scenario built (labs/<slug>/scenario.ts,
// the ReportBlock vocabulary of labs/lab-scenario.ts) showing what the learner's code did in the live
// cluster next to what the reference did on the same seed. Differences are marked by the lab with a
// ≠ sign and words, and here with a badge and a highlight, not by colour alone.
// Plain text only (textContent): nothing from learner code is parsed as HTML.
import type { ReportBlock, ReportRow } from '../../../labs/lab-scenario.ts';
import type { ClusterComparison } from './run-in-cluster-protocol.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function table(caption: string, head: string[], rows: ReportRow[]): HTMLTableElement {
  const t = el('table', 'cluster-table');
  t.append(el('caption', 'visually-hidden', caption));
  const tr = el('tr');
  for (const h of head) tr.append(Object.assign(el('th', undefined, h), { scope: 'col' }));
  t.append(el('thead'), el('tbody'));
  t.tHead!.append(tr);
  for (const row of rows) {
    const r = el('tr', row.differs ? 'cluster-differs' : undefined);
    row.cells.forEach((cell, i) => r.append(el(i === 0 ? 'th' : 'td', undefined, cell)));
    r.firstElementChild?.setAttribute('scope', 'row');
    t.tBodies[0]!.append(r);
  }
  return t;
}

function badge(differs: boolean): HTMLElement {
  return differs
    ? el('span', 'cluster-badge cluster-badge-differs', '≠ differs from the reference')
    : el('span', 'cluster-badge', '= same as the reference');
}

/** The one-line verdict, for the live status region. */
export function clusterSummary(result: ClusterComparison): string {
  return result.summary;
}

export function renderClusterComparison(container: HTMLElement, result: ClusterComparison): void {
  const error = result.learnerError ? [el('p', 'cluster-error', `Your code stopped the run: ${result.learnerError}`)] : [];
  container.replaceChildren(...error, ...result.report.map(block));
}

function block(b: ReportBlock): HTMLElement {
  switch (b.kind) {
    case 'note':
      return el('p', 'cluster-note', b.text);
    case 'pre':
      return el('pre', 'cluster-pre', b.text);
    case 'table':
      return table(b.caption, b.head, b.rows);
    case 'sides': {
      const sides = el('div', 'cluster-sides');
      for (const side of b.sides) {
        const fig = el('figure', 'cluster-side');
        fig.append(el('figcaption', undefined, side.title), ...side.blocks.map(block));
        sides.append(fig);
      }
      return sides;
    }
    case 'steps': {
      const list = el('ol', 'cluster-steps');
      for (const step of b.steps) {
        const item = el('li', `cluster-step${step.differs ? ' cluster-step-differs' : ''}`);
        const head = el('h3', 'cluster-step-title', step.title);
        head.append(badge(step.differs));
        item.append(head, ...step.blocks.map(block));
        list.append(item);
      }
      return list;
    }
    case 'section': {
      const section = el('div', 'cluster-section');
      section.append(el('h3', undefined, b.title), ...b.blocks.map(block));
      return section;
    }
    case 'details': {
      const details = el('details', 'cluster-details');
      if (b.open) details.open = true;
      details.append(el('summary', undefined, b.summary), ...b.blocks.map(block));
      return details;
    }
  }
}
