// kubectl annotate: add, overwrite or remove annotations with a JSON merge patch; every object
// prints "annotated" (annotate.go has no "unannotated"). Without --overwrite, a key that already
// has a different value is refused (validateNoAnnotationOverwrites), except the change-cause
// annotation, which `kubectl rollout history` shows in its CHANGE-CAUSE column.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go
import type { Ctx } from '../context.ts';
import { editKeyValues } from './mutate.ts';

const CHANGE_CAUSE = 'kubernetes.io/change-cause';

export function runAnnotate(ctx: Ctx, done: () => void): void {
  editKeyValues(
    ctx,
    'annotation',
    done,
    (obj, changes, overwrite) => {
      const annotations = { ...(obj.metadata.annotations ?? {}) };
      if (!overwrite) {
        const clashes = Object.entries(changes.set)
          .filter(([k, v]) => k !== CHANGE_CAUSE && annotations[k] !== undefined && annotations[k] !== v)
          .map(([k]) => `'${k}' already has a value (${annotations[k]})`);
        if (clashes.length > 0)
          return { ok: false, error: `--overwrite is false but found the following declared annotation(s): ${clashes.join('; ')}` };
      }
      const before = JSON.stringify(annotations);
      Object.assign(annotations, changes.set);
      for (const k of changes.remove) delete annotations[k];
      obj.metadata.annotations = annotations;
      return { ok: true, object: obj, op: 'annotated', changed: JSON.stringify(annotations) !== before };
    },
    (changes) => {
      const both = changes.remove.filter((k) => k in changes.set);
      return both.length > 0 ? `can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}` : undefined;
    },
  );
}
