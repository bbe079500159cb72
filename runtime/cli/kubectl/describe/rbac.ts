// kubectl describe for RBAC objects: a Role's or ClusterRole's rules as the PolicyRule table
// (broken down, compacted and sorted as `auth can-i --list` prints them), a binding's roleRef and
// its subjects. mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go (RoleDescriber,
// ClusterRoleDescriber, CombineResourceGroup, RoleBindingDescriber, ClusterRoleBindingDescriber).
// None of them prints a Namespace line or events.
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../../api/index.ts';
import { breakdownCompactSort, combineResourceGroup } from '../commands/auth-can-i-list.ts';
import { goSlice } from '../printers/go-format.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter, writeAnnotations, writeLabels } from './writer.ts';

/** RoleDescriber and ClusterRoleDescriber (the same text). */
export function describeRole(role: Role | ClusterRole): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${role.metadata.name ?? ''}\n`);
  writeLabels(w, 'Labels', role.metadata.labels);
  writeAnnotations(w, 'Annotations', role.metadata.annotations);
  w.write(LEVEL_0, 'PolicyRule:\n');
  w.write(LEVEL_1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  w.write(LEVEL_1, '---------\t-----------------\t--------------\t-----\n');
  for (const r of breakdownCompactSort(role.rules ?? [])) {
    w.write(
      LEVEL_1,
      `${combineResourceGroup(r.resources ?? [], r.apiGroups ?? [])}\t${goSlice(r.nonResourceURLs)}\t${goSlice(r.resourceNames)}\t${goSlice(r.verbs)}\n`,
    );
  }
  return w.toString();
}

/** RoleBindingDescriber and ClusterRoleBindingDescriber (the same text). */
export function describeRoleBinding(binding: RoleBinding | ClusterRoleBinding): string {
  const w = new PrefixWriter();
  w.write(LEVEL_0, `Name:\t${binding.metadata.name ?? ''}\n`);
  writeLabels(w, 'Labels', binding.metadata.labels);
  writeAnnotations(w, 'Annotations', binding.metadata.annotations);
  w.write(LEVEL_0, 'Role:\n');
  w.write(LEVEL_1, `Kind:\t${binding.roleRef.kind}\n`);
  w.write(LEVEL_1, `Name:\t${binding.roleRef.name}\n`);
  w.write(LEVEL_0, 'Subjects:\n');
  w.write(LEVEL_1, 'Kind\tName\tNamespace\n');
  w.write(LEVEL_1, '----\t----\t---------\n');
  for (const s of binding.subjects ?? []) w.write(LEVEL_1, `${s.kind}\t${s.name}\t${s.namespace ?? ''}\n`);
  return w.toString();
}
