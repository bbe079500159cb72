// An estimate of a request's encoded size, for etcd's --max-request-bytes check (default 1.5 MiB).
import { utf8Length } from '../mvcc/keys.ts';
import type { RequestOp } from '../mvcc/types.ts';
import type { WriteCommand } from './protocol.ts';

const FIELD_OVERHEAD_BYTES = 8;

export function requestBytes(cmd: WriteCommand): number {
  switch (cmd.op) {
    case 'put':
      return utf8Length(cmd.req.key) + utf8Length(cmd.req.value) + FIELD_OVERHEAD_BYTES;
    case 'deleteRange':
      return utf8Length(cmd.req.key) + utf8Length(cmd.req.rangeEnd ?? '') + FIELD_OVERHEAD_BYTES;
    case 'txn':
      return txnBytes(cmd.req);
    default:
      return FIELD_OVERHEAD_BYTES * 2;
  }
}

function txnBytes(t: { compare: { key: string; operand: string | number }[]; success: RequestOp[]; failure: RequestOp[] }): number {
  let n = 0;
  for (const c of t.compare) n += utf8Length(c.key) + (typeof c.operand === 'string' ? utf8Length(c.operand) : 8) + FIELD_OVERHEAD_BYTES;
  for (const op of [...t.success, ...t.failure]) n += opBytes(op);
  return n;
}

function opBytes(op: RequestOp): number {
  if ('put' in op) return requestBytes({ op: 'put', req: op.put });
  if ('deleteRange' in op) return requestBytes({ op: 'deleteRange', req: op.deleteRange });
  if ('range' in op) return utf8Length(op.range.key) + utf8Length(op.range.rangeEnd ?? '') + FIELD_OVERHEAD_BYTES;
  return txnBytes(op.txn);
}
