// kubectl rollout pause|resume: set or clear a Deployment's spec.paused with a strategic merge patch.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_pause.go and rollout_resume.go, with
// polymorphichelpers objectpauser.go / objectresumer.go (Deployments only; "is already paused",
// "is not paused", "pausing is not supported" are theirs), and the per-object error line
// `error: <resource>.<group> "<name>" <reason>`.
import type { Deployment } from '../../../api/index.ts';
import type { Ctx } from '../context.ts';
import { editEach } from './mutate.ts';

const USAGE = 'required resource not specified';

function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

function setPaused(ctx: Ctx, paused: boolean, done: () => void): void {
  editEach(
    ctx,
    USAGE,
    'strategic',
    (obj, g) => {
      const name = `${qualified(g.info.resource, g.info.group)} "${obj.metadata.name ?? ''}"`;
      if (g.info.kind !== 'Deployment')
        return { ok: false, error: `${name} ${paused ? 'pausing' : 'resuming'} is not supported` };
      const d = obj as Deployment;
      if ((d.spec.paused ?? false) === paused)
        return { ok: false, error: `${name} ${paused ? 'is already paused' : 'is not paused'}` };
      if (paused) d.spec.paused = true;
      else delete d.spec.paused;
      return { ok: true, object: d, op: paused ? 'paused' : 'resumed', changed: true };
    },
    done,
  );
}

export function runRolloutPause(ctx: Ctx, done: () => void): void {
  setPaused(ctx, true, done);
}

export function runRolloutResume(ctx: Ctx, done: () => void): void {
  setPaused(ctx, false, done);
}
