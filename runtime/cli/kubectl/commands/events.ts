// kubectl events: the namespace's (or, with -A, every) core/v1 Event, optionally only those about
// one object (--for TYPE/NAME, a field selector on involvedObject kind, apiVersion and name) or of
// some types (--types=Normal,Warning), oldest first by the time each happened, with LAST SEEN as
// "<age> (xN over <age>)" for repeated ones. With -w, each event as it arrives.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/events/events.go and event_printer.go.
import { lookupResource, parseRFC3339, type CoreEvent } from '../../../api/index.ts';
import { flagBool, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { translateTimestampSince } from '../duration.ts';
import { goSortArray } from '../printers/go-sort.ts';
import { parseOutputFormat, tryPrintStructured } from '../printers/output.ts';
import { alignTabs, GET_TABWRITER } from '../printers/tabwriter.ts';
import type { ObjectList } from '../transport.ts';
import { canWatch, rememberedWidths } from './watch.ts';

interface EventsOptions {
  namespace: string | undefined;
  fieldSelector?: string;
  types: string[];
}

export function runEvents(ctx: Ctx, done: () => void): void {
  const options = eventsOptions(ctx);
  if ('error' in options) {
    ctx.error(options.error);
    return done();
  }
  if (flagBool(ctx.args, 'watch')) return watchEvents(ctx, options, done);
  const events = lookupResource('events')!;
  const query = options.fieldSelector ? { fieldSelector: options.fieldSelector } : {};
  ctx.request({ verb: 'list', resource: gvr(events), namespace: options.namespace, query }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    const items = ((res.body as ObjectList).items as CoreEvent[]).filter((e) => typeOk(options, e));
    if (items.length === 0) {
      ctx.stderr += ctx.allNamespaces ? 'No events found.\n' : `No events found in ${ctx.namespace} namespace.\n`;
      return done();
    }
    // sort.Sort(SortableEvents): Go's unstable sort, so same-second events come out as kubectl leaves them
    goSortArray(items, (a, b) => timeOf(a) < timeOf(b));
    printEvents(ctx, items);
    done();
  });
}

/** ToOptions and Validate. */
function eventsOptions(ctx: Ctx): EventsOptions | { error: string } {
  const types = [...new Set(flagStrings(ctx.args, 'types'))].sort();
  for (const t of types) if (t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning') return { error: 'valid --types are Normal or Warning' };
  const out: EventsOptions = { namespace: ctx.allNamespaces ? undefined : ctx.namespace, types };
  const forObject = flagString(ctx.args, 'for');
  if (forObject !== undefined && forObject !== '') {
    const parts = forObject.split('/');
    if (parts.length === 1) return { error: '--for must be in resource/name form' };
    if (parts.length > 2) return { error: 'arguments in resource/name form may not have more than one slash' };
    const info = lookupResource(parts[0]!);
    if (!info) return { error: `the server doesn't have a resource type "${parts[0]!.toLowerCase()}"` };
    const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
    out.fieldSelector = `involvedObject.kind=${info.kind},involvedObject.apiVersion=${apiVersion},involvedObject.name=${parts[1]}`;
  }
  return out;
}

const typeOk = (o: EventsOptions, e: CoreEvent): boolean => o.types.length === 0 || o.types.some((t) => t.toLowerCase() === (e.type ?? '').toLowerCase());

/** eventTime(): the series' last observation, else lastTimestamp, else eventTime (a zero time first). */
function timeOf(e: CoreEvent): number {
  const text = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime;
  return text ? parseRFC3339(text) ?? -Infinity : -Infinity;
}

/** genericclioptions.PrintFlags' formats, sorted and joined with "," as NoCompatiblePrinterError prints them. */
const EVENTS_FORMATS = 'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml';

/** The EventPrinter (or -o's printer on the EventList). */
function printEvents(ctx: Ctx, items: CoreEvent[]): void {
  const output = flagString(ctx.args, 'output');
  if (output !== undefined && output !== '') {
    const format = parseOutputFormat(output);
    if (!format.ok) return ctx.error(format.error);
    if (format.format.kind === 'name') return ctx.out(items.map((e) => `event/${e.metadata.name ?? ''}\n`).join(''));
    // events.go takes genericclioptions.NewPrintFlags: no wide, no custom columns (NoCompatiblePrinterError)
    if (format.format.kind === 'table' || format.format.kind === 'custom-columns') return ctx.error(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: ${EVENTS_FORMATS}`);
    const list = { apiVersion: 'v1', kind: 'EventList', metadata: {}, items: items.map((e) => ({ ...e, apiVersion: 'v1', kind: 'Event' })) };
    const printed = tryPrintStructured(format.format, [list as never], true, () => 'event/');
    return printed.ok ? ctx.out(printed.text) : ctx.error(printed.error);
  }
  const lines = [...(flagBool(ctx.args, 'no-headers') ? [] : [header(ctx)]), ...items.map((e) => row(ctx, e))];
  ctx.out(alignTabs(lines.map((cells) => `${cells.join('\t')}\n`).join(''), GET_TABWRITER));
}

function header(ctx: Ctx): string[] {
  return [...(ctx.allNamespaces ? ['NAMESPACE'] : []), 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
}

function row(ctx: Ctx, e: CoreEvent): string[] {
  const o = e.involvedObject;
  return [
    ...(ctx.allNamespaces ? [e.metadata.namespace ?? ''] : []),
    interval(e, ctx.nowMs), e.type ?? '', e.reason ?? '', `${o.kind ?? ''}/${o.name ?? ''}`, (e.message ?? '').trim(),
  ];
}

/** getInterval: "<age>", or "<last> (xN over <first>)" for a series or a counted event. */
function interval(e: CoreEvent, nowMs: number): string {
  const since = (t: string | null | undefined): string => translateTimestampSince(t ?? undefined, nowMs);
  const first = e.eventTime ? since(e.eventTime) : since(e.firstTimestamp);
  if (e.series) return `${since(e.series.lastObservedTime)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${since(e.lastTimestamp)} (x${e.count} over ${first})`;
  return first;
}

/** runWatch: the header once, then each added or changed event (deletions are the 1 h expiry: not shown). */
function watchEvents(ctx: Ctx, options: EventsOptions, done: () => void): void {
  if (!canWatch(ctx)) return done();
  let widths = rememberedWidths([header(ctx)]);
  let printedHeader = flagBool(ctx.args, 'no-headers');
  const print = (cells: string[]): void => {
    widths = rememberedWidths([cells]).map((w, i) => Math.max(w, widths[i] ?? 6));
    ctx.out(cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]!) : c)).join('') + '\n');
  };
  const events = lookupResource('events')!;
  const stream = ctx.transport.watch!(
    { verb: 'watch', resource: gvr(events), namespace: options.namespace, query: options.fieldSelector ? { fieldSelector: options.fieldSelector } : {} },
    (ev) => {
      if (ev.type === 'DELETED' || ev.type === 'BOOKMARK' || ev.type === 'ERROR') return;
      const e = ev.object as CoreEvent;
      if (!typeOk(options, e)) return;
      if (!printedHeader) {
        printedHeader = true;
        print(header(ctx));
      }
      print(row(ctx, e));
    },
  );
  ctx.io.after!(ctx.io.watchForMs!, () => {
    stream.stop();
    done();
  });
}
