// kubectl annotate: add, overwrite or remove annotations with a JSON merge patch; every object
// prints "annotated" (annotate.go has no "unannotated"). Without --overwrite, a key that already
// has a different value is refused (validateNoAnnotationOverwrites), except the change-cause
// annotation, which `kubectl rollout history` shows in its CHANGE-CAUSE column.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go
import { flagBool } from '../args.ts';
import type { Ctx } from '../context.ts';
import { editEach, splitLabelArgs } from './mutate.ts';

const CHANGE_CAUSE = 'kubernetes.io/change-cause';

export function runAnnotate(ctx: Ctx, done: () => void): void {
  const split = splitLabelArgs(ctx.args.positionals, 'annotation');
  if ('error' in split) {
    ctx.error(split.error);
    return done();
  }
  const both = split.changes.remove.filter((k) => k in split.changes.set);
  if (both.length > 0) {
    ctx.error(`can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}`);
    return done();
  }
  ctx.args.positionals = split.resources;
  const overwrite = flagBool(ctx.args, 'overwrite');
  editEach(
    ctx,
    'one or more resources must be specified as <resource> <name> or <resource>/<name>',
    'merge',
    (obj) => {
      const annotations = { ...(obj.metadata.annotations ?? {}) };
      if (!overwrite) {
        const clashes = Object.entries(split.changes.set)
          .filter(([k, v]) => k !== CHANGE_CAUSE && annotations[k] !== undefined && annotations[k] !== v)
          .map(([k]) => `'${k}' already has a value (${annotations[k]})`);
        if (clashes.length > 0)
          return { ok: false, error: `--overwrite is false but found the following declared annotation(s): ${clashes.join('; ')}` };
      }
      const before = JSON.stringify(annotations);
      Object.assign(annotations, split.changes.set);
      for (const k of split.changes.remove) delete annotations[k];
      obj.metadata.annotations = annotations;
      return { ok: true, object: obj, op: 'annotated', changed: JSON.stringify(annotations) !== before };
    },
    done,
  );
}
