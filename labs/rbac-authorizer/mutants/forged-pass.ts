// The rbac-authorizer lab: decide a request the way kube-apiserver's RBAC authorizer does, with
// its exact reason, and write the Forbidden message the API server answers with.
// Read lab.mdx first. Run the visible examples with `npm run grade -- rbac-authorizer --examples`;
// grade with `npm run grade -- rbac-authorizer`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { PolicyRule, Subject } from '../../../runtime/api/index.ts';
import type { Attributes, AuthorizationResult, Authorizer, RbacLister, UserInfo } from '../../../runtime/apiserver/index.ts';

export function newRbacAuthorizer(lister: RbacLister): Authorizer {
  return {
    authorize(a: Attributes): AuthorizationResult {
      // TODO 1: walk lister.clusterRoleBindings(), then (for a namespaced request) lister.roleBindings(namespace):
      //         skip bindings none of whose subjects is this user, fetch the referenced role's rules,
      //         and stop at the first rule that allows the request.
      // TODO 2: on success, describe the binding and the subject that matched in the reason.
      // TODO 3: otherwise no opinion; a binding whose role is missing leaves an error in the reason.
      void lister;
      void a;
      return { decision: 'NoOpinion', reason: '' };
    },
  };
}

/** Whether one rule covers the request (verbs, API groups, resources, names; or verbs and URLs). */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  void a;
  void rule;
  return false; // TODO
}

/** Whether a binding's subject names this user; `bindingNamespace` is '' for a ClusterRoleBinding. */
export function subjectMatches(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  void user;
  void subject;
  void bindingNamespace;
  return false; // TODO
}

/** The message of the 403 Status the API server answers when no authorizer allows the request. */
export function forbiddenStatusMessage(a: Attributes, reason: string): string {
  void reason;
  return `User ${JSON.stringify(a.user.name)} cannot ${a.verb}`; // TODO
}
// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
