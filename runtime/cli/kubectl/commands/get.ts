// kubectl get: tables, -o formats, -A, -l, --field-selector, --sort-by, --raw.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (Run: printing groups, the "No resources
// found" message, single-object output for one named object).
import { urlParseError, type KubeObject } from '../../../api/index.ts';
import { flagBool, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { noResourcesFound } from '../errors.ts';
import { klogLine } from '../klog.ts';
import { parseOutputFormat, printStructured, type OutputFormat } from '../printers/output.ts';
import { SortByError, sortObjects } from '../printers/sort-by.ts';
import { printTables } from '../printers/table.ts';
import { typePrefix } from '../resources.ts';
import { fetchTargets, type TargetGroup } from './targets.ts';
import { canWatch, watchGroup } from './watch.ts';

const MISSING_TYPE =
  'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n' +
  'error: Required resource not specified.\n' +
  'Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
  "See 'kubectl get -h' for help and examples";

export function runGet(ctx: Ctx, done: () => void): void {
  const raw = flagString(ctx.args, 'raw');
  if (raw !== undefined) {
    getRaw(ctx, raw, done);
    return;
  }
  const format = parseOutputFormat(flagString(ctx.args, 'output'));
  if (!format.ok) {
    ctx.error(format.error);
    done();
    return;
  }
  const watching = flagBool(ctx.args, 'watch') || flagBool(ctx.args, 'watch-only');
  fetchTargets(ctx, { missingTypeError: MISSING_TYPE }, (groups) => {
    if (!groups) return done();
    if (watching && groups.length > 1) {
      ctx.error('you may only specify a single resource type');
      return done();
    }
    // get.go watch: the current objects are printed by the watch's own printer (as ADDED events
    // under --output-watch-events), and an empty list prints no "No resources found"
    const watchNow = watching && groups[0] !== undefined && canWatch(ctx);
    const printFirst = watchNow
      ? !flagBool(ctx.args, 'watch-only') && !flagBool(ctx.args, 'output-watch-events') && groups[0]!.objects.length > 0
      : !flagBool(ctx.args, 'watch-only');
    try {
      if (printFirst) printGroups(ctx, groups, format.format);
    } catch (e) {
      ctx.error((e as Error).message);
    }
    if (watchNow && !ctx.failed) watchGroup(ctx, groups[0]!, done);
    else done();
  });
}

function getRaw(ctx: Ctx, path: string, done: () => void): void {
  // Request.RequestURI parses the path first (url.Parse)
  const invalid = urlParseError(path);
  if (invalid !== undefined) {
    ctx.error(invalid);
    return done();
  }
  ctx.raw(path, (res) => {
    if (res.ok) ctx.out(res.body);
    else ctx.statusError(res.status);
    done();
  });
}

function printGroups(ctx: Ctx, groups: TargetGroup[], format: OutputFormat): void {
  const sortBy = flagString(ctx.args, 'sort-by');
  try {
    printSortedGroups(ctx, groups, format, sortBy);
  } catch (e) {
    if (!(e instanceof SortByError)) throw e;
    // nothing is printed: kubectl sorts everything before printing anything
    if (e.klog) ctx.stderr += klogLine(ctx.nowMs, 'F', e.klog.source, e.klog.message);
    else ctx.error(e.message);
    ctx.failed = true;
  }
}

function printSortedGroups(ctx: Ctx, groups: TargetGroup[], format: OutputFormat, sortBy: string | undefined): void {
  // tables: each resource's table sorted on its own (RuntimeSorter.Sort with a TableSorter each)
  const sorted = groups.map((g) => ({
    ...g,
    objects: sortBy && format.kind === 'table' ? sortObjects(g.objects, sortBy, 'table') : g.objects,
  }));
  const total = sorted.reduce((n, g) => n + g.objects.length, 0);
  const anyNamed = sorted.some((g) => g.named);
  if (format.kind !== 'table') {
    let objects = sorted.flatMap((g) => g.objects);
    // printGeneric: when one object was asked for (singleItemImplied) and getting it failed, the
    // error is all kubectl prints (no empty List)
    if (ctx.failed && objects.length === 0 && singleNamed(ctx)) return;
    const single = objects.length === 1 && (singleNamed(ctx) || ctx.args.flags.has('filename'));
    // every item in one List, sorted as a whole by the SortingPrinter (one object alone is not a list)
    if (sortBy && !single) objects = sortObjects(objects, sortBy, 'runtime');
    const prefixOf = (o: KubeObject): string =>
      typePrefix(sorted.find((g) => g.objects.includes(o))!.info);
    ctx.out(printStructured(format, objects, single, prefixOf));
    return;
  }
  if (total === 0) {
    if (!anyNamed && !ctx.failed) {
      const allNamespaced = !ctx.allNamespaces && sorted.every((g) => g.info.namespaced);
      ctx.stderr += noResourcesFound(allNamespaced ? ctx.namespace : undefined);
    }
    return;
  }
  ctx.out(
    printTables(
      sorted.map((g) => ({
        kind: g.info.kind,
        typePrefix: typePrefix(g.info),
        namespaced: g.info.namespaced,
        objects: g.objects,
      })),
      {
        nowMs: ctx.nowMs,
        wide: format.wide,
        noHeaders: flagBool(ctx.args, 'no-headers'),
        showLabels: flagBool(ctx.args, 'show-labels'),
        withNamespace: ctx.allNamespaces,
        withKind: sorted.length > 1 || flagBool(ctx.args, 'show-kind'),
        labelColumns: flagStrings(ctx.args, 'label-columns'),
      },
    ),
  );
}

/** One name after a type, or one type/name: kubectl prints the object, not a List. */
function singleNamed(ctx: Ctx): boolean {
  const p = ctx.args.positionals;
  return (
    (p.length === 2 && !p[0]!.includes(',') && !p[0]!.includes('/')) ||
    (p.length === 1 && p[0]!.includes('/'))
  );
}
