// An estimate of a request's encoded size, for etcd's --max-request-bytes check (default 1.5 MiB).
import { utf8Length } from '../mvcc/keys.ts';
import type { RequestOp } from '../mvcc/types.ts';
import type { WriteCommand } from './protocol.ts';

const FIELD_OVERHEAD_BYTES = 8;

export function requestBytes(cmd: WriteCommand): number {
  switch (cmd.op) {
    case 'put':
      return putBytes(cmd.req);
    case 'deleteRange':
      return rangeBytes(cmd.req);
    case 'txn':
      return txnBytes(cmd.req);
    default:
      return FIELD_OVERHEAD_BYTES * 2;
  }
}

// Every write is sized on the proposing member: the helpers take the request parts directly
// (no wrapper command per op, no joined list of a txn's branches).
function putBytes(req: { key: string; value: string }): number {
  return utf8Length(req.key) + utf8Length(req.value) + FIELD_OVERHEAD_BYTES;
}

/** A delete's or a range's key and range end. */
function rangeBytes(req: { key: string; rangeEnd?: string }): number {
  return utf8Length(req.key) + utf8Length(req.rangeEnd ?? '') + FIELD_OVERHEAD_BYTES;
}

function txnBytes(t: { compare: { key: string; operand: string | number }[]; success: RequestOp[]; failure: RequestOp[] }): number {
  let n = 0;
  for (let i = 0; i < t.compare.length; i++) {
    const c = t.compare[i]!;
    n += utf8Length(c.key) + (typeof c.operand === 'string' ? utf8Length(c.operand) : 8) + FIELD_OVERHEAD_BYTES;
  }
  for (let i = 0; i < t.success.length; i++) n += opBytes(t.success[i]!);
  for (let i = 0; i < t.failure.length; i++) n += opBytes(t.failure[i]!);
  return n;
}

function opBytes(op: RequestOp): number {
  if ('put' in op) return putBytes(op.put);
  if ('deleteRange' in op) return rangeBytes(op.deleteRange);
  if ('range' in op) return rangeBytes(op.range);
  return txnBytes(op.txn);
}
