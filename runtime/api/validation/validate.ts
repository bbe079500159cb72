// One entry point: validate any object we serve (ObjectMeta by the kind's naming rule, then the
// kind's own rules). Never throws: malformed input becomes field errors.
import { Path } from '../field/path.ts';
import { invalid, required, type FieldError } from '../field/errors.ts';
import { resourceForKind } from '../registry.ts';
import {
  isObject,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
  validateObjectMeta,
  type JsonObject,
  type NameValidator,
} from './common.ts';
import { validatePod } from './pod.ts';
import { validateSecret } from './secret.ts';
import { validateEndpoints } from './endpoints.ts';
import { validatePriorityClass } from './scheduling.ts';
import { validatePodDisruptionBudget } from './policy.ts';
import { validateLimitRange } from './limit-range.ts';
import { validateResourceQuota } from './resource-quota.ts';
import { nameIsCanonicalIP } from './networking.ts';
import { validateDaemonSet, validateDeployment, validateReplicaSet } from './apps.ts';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateConfigMap,
  validateEndpointSlice,
  validateNode,
  validateRole,
  validateRoleBinding,
  validateService,
} from './core.ts';

interface KindRules {
  nameFn: NameValidator;
  spec?: (obj: JsonObject) => FieldError[];
}

/** Naming rule per kind: ValidatePodName (subdomain), ValidateServiceName (DNS-1035), namespaces (label)... */
const RULES: Record<string, KindRules> = {
  Pod: { nameFn: nameIsDNSSubdomain, spec: validatePod },
  Node: { nameFn: nameIsDNSSubdomain, spec: validateNode },
  Namespace: { nameFn: nameIsDNSLabel },
  Service: { nameFn: nameIsDNS1035Label, spec: validateService },
  // ValidateEndpointsName: the Service's name rule would do, but upstream checks a DNS subdomain
  Endpoints: { nameFn: nameIsDNSSubdomain, spec: validateEndpoints },
  ConfigMap: { nameFn: nameIsDNSSubdomain, spec: validateConfigMap },
  Secret: { nameFn: nameIsDNSSubdomain, spec: validateSecret },
  ServiceAccount: { nameFn: nameIsDNSSubdomain },
  Event: { nameFn: nameIsDNSSubdomain },
  LimitRange: { nameFn: nameIsDNSSubdomain, spec: validateLimitRange },
  ResourceQuota: { nameFn: nameIsDNSSubdomain, spec: validateResourceQuota },
  Deployment: { nameFn: nameIsDNSSubdomain, spec: validateDeployment },
  ReplicaSet: { nameFn: nameIsDNSSubdomain, spec: validateReplicaSet },
  DaemonSet: { nameFn: nameIsDNSSubdomain, spec: validateDaemonSet },
  ControllerRevision: { nameFn: nameIsDNSSubdomain },
  EndpointSlice: { nameFn: nameIsDNSSubdomain, spec: validateEndpointSlice },
  Lease: { nameFn: nameIsDNSSubdomain },
  PriorityClass: { nameFn: nameIsDNSSubdomain, spec: validatePriorityClass },
  PodDisruptionBudget: { nameFn: nameIsDNSSubdomain, spec: validatePodDisruptionBudget },
  IPAddress: { nameFn: nameIsCanonicalIP },
  ServiceCIDR: { nameFn: nameIsDNSSubdomain },
  Role: { nameFn: nameIsPathSegment, spec: validateRole },
  ClusterRole: { nameFn: nameIsPathSegment, spec: validateClusterRole },
  RoleBinding: { nameFn: nameIsPathSegment, spec: validateRoleBinding },
  ClusterRoleBinding: { nameFn: nameIsPathSegment, spec: validateClusterRoleBinding },
};

/**
 * Validates an object for create. Apply defaultObject() first, as the API server does, or fields
 * such as restartPolicy will be reported as required.
 */
export function validateObject(obj: unknown, kind?: string): FieldError[] {
  if (!isObject(obj)) return [invalid(undefined, obj, 'object must be a JSON object')];
  const k = kind ?? (typeof obj.kind === 'string' ? obj.kind : '');
  if (k === '') return [required(Path.of('kind'), '')];
  const rules = RULES[k];
  const info = resourceForKind(k);
  if (!rules || !info) return [invalid(Path.of('kind'), k, 'no validation rules for this kind')];
  const errs = validateObjectMeta(
    obj.metadata,
    { namespaced: info.namespaced, nameFn: rules.nameFn },
    Path.of('metadata'),
  );
  if (rules.spec) errs.push(...rules.spec(obj));
  return errs;
}
