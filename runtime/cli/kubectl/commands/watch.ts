// `kubectl get -w`: after the first table, one row per change, aligned to the widths the table
// already used (the tabwriter's RememberWidths), until the watch window closes.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/get.go watch (--watch-only, --output-watch-events).
import type { KubeObject } from '../../../api/index.ts';
import { flagBool, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { tableFor } from '../printers/kinds.ts';
import type { TargetGroup } from './targets.ts';

/** Column widths (text + 3 padding, at least 6) of already printed, tab-separated lines. */
export function rememberedWidths(lines: string[][]): number[] {
  const widths: number[] = [];
  for (const cells of lines)
    cells.slice(0, -1).forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 6, [...c].length + 3)));
  return widths;
}

function padRow(cells: string[], widths: number[]): string {
  return (
    cells
      .map((c, i) =>
        i < cells.length - 1 ? c.padEnd(Math.max(widths[i] ?? 6, [...c].length + 3)) : c,
      )
      .join('') + '\n'
  );
}

/** Can this invocation watch? (a transport stream and a simulated timer to end the window) */
export function canWatch(ctx: Ctx): boolean {
  return (
    ctx.transport.watch !== undefined && ctx.io.after !== undefined && (ctx.io.watchForMs ?? 0) > 0
  );
}

/**
 * Watches one group after the list or get that produced it (get.go watch): a list is watched from
 * the list's resourceVersion, which sends no synthetic ADDED events, so nothing printed is
 * repeated; one named object is watched from resourceVersion "0" with a metadata.name field
 * selector (WatchSingle), whose first event, the synthetic ADDED of the object already printed, is
 * suppressed. With --output-watch-events (and without --watch-only) the current objects are
 * printed here as ADDED events; otherwise get.go printed them as a table already.
 */
export function watchGroup(ctx: Ctx, group: TargetGroup, done: () => void): void {
  const table = tableFor(group.info.kind);
  const wide = flagString(ctx.args, 'output') === 'wide';
  const withNamespace = ctx.allNamespaces && group.info.namespaced;
  const events = flagBool(ctx.args, 'output-watch-events');
  const watchOnly = flagBool(ctx.args, 'watch-only');
  const rowOf = (obj: KubeObject, type?: string): string[] => {
    const cells = table.row(obj, ctx.nowMs, wide);
    if (withNamespace) cells.unshift(obj.metadata.namespace ?? '');
    if (events && type) cells.unshift(type);
    return cells;
  };
  const header = [
    ...(events ? ['EVENT'] : []),
    ...(withNamespace ? ['NAMESPACE'] : []),
    ...table.headers(wide),
  ];
  let widths = rememberedWidths([header, ...group.objects.map((o) => rowOf(o, 'ADDED'))]);
  let printedHeader = !watchOnly && group.objects.length > 0;
  if (events && !watchOnly && group.objects.length > 0) {
    const noHeaders = flagBool(ctx.args, 'no-headers');
    if (!noHeaders) ctx.out(padRow(header, widths));
    for (const o of group.objects) ctx.out(padRow(rowOf(o, 'ADDED'), widths));
  }
  if (group.named && group.objects.length > 1) {
    // resource.Result.Watch: each name is a source of its own
    ctx.error('you may only watch a single resource or type of resource at a time');
    return done();
  }
  const single = group.named ? group.objects[0]?.metadata.name : undefined;
  // suppress output until the first event (the object already printed) has passed
  let suppress = single !== undefined;
  const namespace = group.info.namespaced && !ctx.allNamespaces ? ctx.namespace : undefined;
  const query =
    single !== undefined
      ? { resourceVersion: '0', fieldSelector: `metadata.name=${single}` }
      : {
          resourceVersion: group.resourceVersion,
          labelSelector: flagString(ctx.args, 'selector'),
          fieldSelector: flagString(ctx.args, 'field-selector'),
        };
  const stream = ctx.transport.watch!(
    { verb: 'watch', resource: gvr(group.info), namespace, query },
    (event) => {
      if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
      if (single !== undefined && event.object.metadata.name !== single) return;
      if (suppress) {
        suppress = false;
        return;
      }
      const row = rowOf(event.object, event.type);
      if (!printedHeader && !flagBool(ctx.args, 'no-headers')) {
        // The header is flushed together with the first row, so they share widths.
        widths = rememberedWidths([header, row, ...group.objects.map((o) => rowOf(o, 'ADDED'))]);
        ctx.out(padRow(header, widths));
      }
      printedHeader = true;
      ctx.out(padRow(row, widths));
    },
  );
  ctx.io.after!(ctx.io.watchForMs!, () => {
    stream.stop();
    done();
  });
}
