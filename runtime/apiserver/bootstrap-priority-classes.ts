// The system priority classes: the post-start hook "scheduling/bootstrap-system-priority-classes"
// creates system-node-critical and system-cluster-critical on a fresh cluster, and the
// priorityclasses storage refuses to delete them.
// mirrors pkg/registry/scheduling/rest/storage_scheduling.go (AddSystemPriorityClasses) and
// pkg/registry/scheduling/priorityclass/storage/storage.go (REST.Delete). DELETECOLLECTION goes
// through the generic store's Delete, not REST.Delete, so upstream does not guard it either.
import { isSystemPriorityClassName, newForbidden, systemPriorityClasses, type KubeObject, type Status } from '../api/index.ts';

const GROUP = 'scheduling.k8s.io';
const RESOURCE = 'priorityclasses';

/** The objects the hook creates when they are missing. */
export function bootstrapPriorityClasses(): { resource: { group: string; resource: string }; object: KubeObject }[] {
  return systemPriorityClasses().map((object) => ({ resource: { group: GROUP, resource: RESOURCE }, object }));
}

/** REST.Delete's guard: a 403 for a system class, undefined for anything else. */
export function refuseSystemPriorityClassDelete(resource: { group: string; resource: string }, name: string): Status | undefined {
  if (resource.group !== GROUP || resource.resource !== RESOURCE || !isSystemPriorityClassName(name)) return undefined;
  return newForbidden({ group: GROUP, resource: RESOURCE }, name, 'this is a system priority class and cannot be deleted');
}
