// kubectl api-resources and api-versions: what discovery serves, from the kind registry.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go (columns NAME SHORTNAMES
// APIVERSION NAMESPACED KIND; groups by name, resources by name within a group; -o name;
// --namespaced; --api-group).
import type { ResourceInfo } from '../../../api/index.ts';
import { RESOURCES } from '../../../api/index.ts';
import { flagBool, flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { alignTabs, GET_TABWRITER } from '../printers/tabwriter.ts';

export function runApiResources(ctx: Ctx, done: () => void): void {
  const namespaced = flagString(ctx.args, 'namespaced');
  const apiGroup = flagString(ctx.args, 'api-group');
  const rows = [...RESOURCES]
    .filter((r) => namespaced === undefined || String(r.namespaced) === namespaced)
    .filter((r) => apiGroup === undefined || r.group === apiGroup)
    // sortableResource without --sort-by: by API group name (the core group "" first), then as
    // discovery lists a group's resources, by name
    .sort(
      (a, b) =>
        (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) ||
        (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0),
    );
  const output = flagString(ctx.args, 'output');
  if (output === 'name') {
    ctx.out(rows.map((r) => (r.group ? `${r.resource}.${r.group}\n` : `${r.resource}\n`)).join(''));
    return done();
  }
  const apiVersion = (r: ResourceInfo): string => (r.group ? `${r.group}/${r.version}` : r.version);
  // -o wide: the verbs sorted, as %v prints a []string, and the categories
  const wide = output === 'wide';
  const lines = rows.map((r) =>
    [r.resource, r.shortNames.join(','), apiVersion(r), String(r.namespaced), r.kind,
      ...(wide ? [`[${[...r.verbs].sort().join(' ')}]`, r.categories.join(',')] : [])].join('\t'),
  );
  if (!flagBool(ctx.args, 'no-headers'))
    lines.unshift(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])].join('\t'));
  ctx.out(alignTabs(lines.join('\n') + '\n', GET_TABWRITER));
  done();
}

/**
 * kubectl api-versions (apiversions.go): every group/version discovery serves, sorted as
 * sort.Strings does.
 */
export function runApiVersions(ctx: Ctx, done: () => void): void {
  const versions = new Set(RESOURCES.map((r) => (r.group ? `${r.group}/${r.version}` : r.version)));
  ctx.out([...versions].sort().map((v) => `${v}\n`).join(''));
  done();
}
