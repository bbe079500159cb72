// kubectl auth whoami: asks the API server who it takes the caller for (a SelfSubjectReview).
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/auth/whoami.go (printTableSelfSubjectAccessReview:
// ATTRIBUTE/VALUE rows for Username, UID, Groups and each Extra key, through the get tabwriter).
import type { KubeObject } from '../../../api/index.ts';
import { flagString } from '../args.ts';
import type { Ctx } from '../context.ts';
import { parseOutputFormat, tryPrintStructured } from '../printers/output.ts';
import { goSlice } from '../printers/go-format.ts';
import { alignTabs, GET_TABWRITER } from '../printers/tabwriter.ts';

const SELF_SUBJECT_REVIEWS = { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews' };

interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export function runAuthWhoami(ctx: Ctx, done: () => void): void {
  const format = parseOutputFormat(flagString(ctx.args, 'output'));
  if (!format.ok) {
    ctx.error(format.error);
    return done();
  }
  const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
  ctx.request({ verb: 'create', resource: SELF_SUBJECT_REVIEWS, body }, (res) => {
    if (!res.ok) {
      ctx.statusError(res.status);
      return done();
    }
    const review = res.body as KubeObject & { status?: { userInfo?: UserInfo } };
    if (format.format.kind !== 'table') {
      const printed = tryPrintStructured(format.format, [review], true, () => 'selfsubjectreview.authentication.k8s.io');
      if (printed.ok) ctx.out(printed.text);
      else ctx.error(printed.error);
      return done();
    }
    ctx.out(whoamiTable(review.status?.userInfo ?? {}));
    done();
  });
}

export function whoamiTable(ui: UserInfo): string {
  const rows = ['ATTRIBUTE\tVALUE'];
  if (ui.username) rows.push(`Username\t${ui.username}`);
  if (ui.uid) rows.push(`UID\t${ui.uid}`);
  if (ui.groups && ui.groups.length > 0) rows.push(`Groups\t${goSlice(ui.groups)}`);
  for (const key of Object.keys(ui.extra ?? {}).sort()) rows.push(`Extra: ${key}\t${goSlice(ui.extra![key]!)}`);
  return alignTabs(rows.join('\n') + '\n', GET_TABWRITER);
}
