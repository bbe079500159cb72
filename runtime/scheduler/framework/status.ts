// Status constructors and readers for framework.Status (E1's interface.ts owns the type).
// mirrors pkg/scheduler/framework/interface.go (NewStatus, AsStatus, Status.Message, IsSuccess,
// IsRejected): a Status with no reasons and code Success is the "nil" status of Go.
import type { Status, StatusCode } from './interface.ts';

const SUCCESS: Status = Object.freeze({ code: 'Success', reasons: [] }) as Status;

/** The success status (upstream's nil *Status). Shared and frozen: never mutate it. */
export function success(): Status {
  return SUCCESS;
}

export function newStatus(code: StatusCode, ...reasons: string[]): Status {
  return { code, reasons };
}

export function unschedulable(...reasons: string[]): Status {
  return newStatus('Unschedulable', ...reasons);
}

export function unresolvable(...reasons: string[]): Status {
  return newStatus('UnschedulableAndUnresolvable', ...reasons);
}

export function errorStatus(reason: string): Status {
  return newStatus('Error', reason);
}

export function skip(): Status {
  return newStatus('Skip');
}

export function isSuccess(s: Status): boolean {
  return s.code === 'Success';
}

/** Unschedulable or UnschedulableAndUnresolvable: the node (or the pod) was rejected, not an error. */
export function isRejected(s: Status): boolean {
  return s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable';
}

/** Status.Message(): the reasons joined by ", ". */
export function statusMessage(s: Status): string {
  return s.reasons.join(', ');
}
