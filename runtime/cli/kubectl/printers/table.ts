// `kubectl get` human-readable output: one table per resource type, aligned by the tabwriter.
// mirrors staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go (NAMESPACE column with
// --all-namespaces, kind/name with several types, LABELS with --show-labels, --no-headers) and
// the blank line kubectl get prints between resource groups.
import type { KubeObject } from '../../../api/index.ts';
import { formatLabels, tableFor } from './kinds.ts';
import { alignTabs, GET_TABWRITER } from './tabwriter.ts';

export interface TableOptions {
  nowMs: number;
  wide?: boolean;
  noHeaders?: boolean;
  showLabels?: boolean;
  /** Add the NAMESPACE column (-A on a namespaced resource). */
  withNamespace?: boolean;
  /** Prefix names with their type, "pod/nginx" (several types in one get). */
  withKind?: boolean;
  /** Extra label keys shown as columns (-L). */
  labelColumns?: string[];
}

export interface TableGroup {
  kind: string;
  /** "pod", "deployment.apps": the type prefix when withKind. */
  typePrefix: string;
  namespaced: boolean;
  objects: KubeObject[];
}

/** Renders one resource type's table lines (tab-separated, not yet aligned). */
function groupLines(group: TableGroup, options: TableOptions): string[] {
  const printer = tableFor(group.kind);
  const wide = options.wide ?? false;
  const withNamespace = (options.withNamespace ?? false) && group.namespaced;
  const labelColumns = options.labelColumns ?? [];
  const lines: string[] = [];
  if (!options.noHeaders) {
    const headers = [...printer.headers(wide), ...labelColumns.map(labelHeader)];
    if (withNamespace) headers.unshift('NAMESPACE');
    if (options.showLabels) headers.push('LABELS');
    lines.push(headers.join('\t'));
  }
  for (const obj of group.objects) {
    const cells = printer.row(obj, options.nowMs, wide);
    if (options.withKind && group.kind !== 'Event') cells[0] = `${group.typePrefix}/${cells[0]}`;
    for (const key of labelColumns) cells.push(obj.metadata.labels?.[key] ?? '');
    if (withNamespace) cells.unshift(obj.metadata.namespace ?? '');
    if (options.showLabels) cells.push(formatLabels(obj.metadata.labels));
    lines.push(cells.join('\t'));
  }
  return lines;
}

/** -L app=... prints the last path segment of the key, upper-cased (printers.go formatLabelHeaders). */
function labelHeader(key: string): string {
  const parts = key.split('/');
  return parts[parts.length - 1]!.toUpperCase();
}

/** All groups, each aligned on its own, separated by a blank line like kubectl get. */
export function printTables(groups: TableGroup[], options: TableOptions): string {
  const blocks = groups
    .filter((g) => g.objects.length > 0)
    .map((g) => alignTabs(groupLines(g, options).join('\n') + '\n', GET_TABWRITER));
  return blocks.join('\n');
}
