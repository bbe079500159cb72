// admission.NewForbidden: `<resource> "<name>" is forbidden: <reason>`.
// mirrors staging/src/k8s.io/apiserver/pkg/admission/errors.go
import { newForbidden, type Status } from '../../api/index.ts';
import type { AdmissionAttributes } from './types.ts';

export function admissionForbidden(a: AdmissionAttributes, reason: string): Status {
  return newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, reason);
}
