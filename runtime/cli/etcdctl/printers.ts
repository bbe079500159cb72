// etcdctl's printers: simple, json and table.
// mirrors etcdctl/ctlv3/command/printer.go, printer_simple.go, printer_json.go and printer_table.go.
import type {
  DeleteRangeResult, EndpointStatus, KeyValue, LeaseTimeToLiveResult, Member, PutResult, RangeResult,
  ResponseHeader, ResponseOp, TxnResult, WatchEvent, WithHeader,
} from '../../etcd/index.ts';
import { base64Utf8, goJson, hexToDecimal, humanizeBytes, RawNumber, renderTable } from './format.ts';

export type OutputFormat = 'simple' | 'json' | 'table';

/** printer.go printKV: the key line (unless value-only), then the value line. */
export function simpleKv(kv: KeyValue, valueOnly: boolean): string {
  return (valueOnly ? '' : kv.key + '\n') + kv.value + '\n';
}

// ---- JSON (Go encoding/json over the etcdserverpb structs; zero fields omitted) --------------

const nz = (n: number): number | undefined => (n === 0 ? undefined : n);

export function jsonHeader(h: ResponseHeader): object {
  return {
    cluster_id: new RawNumber(hexToDecimal(h.clusterId)),
    member_id: new RawNumber(hexToDecimal(h.memberId)),
    revision: nz(h.revision),
    raft_term: nz(h.raftTerm),
  };
}

export function jsonKv(kv: KeyValue): object {
  return {
    key: kv.key === '' ? undefined : base64Utf8(kv.key),
    create_revision: nz(kv.createRevision),
    mod_revision: nz(kv.modRevision),
    version: nz(kv.version),
    value: kv.value === '' ? undefined : base64Utf8(kv.value),
    lease: nz(kv.lease),
  };
}

function jsonRange(r: RangeResult, header?: ResponseHeader): object {
  return {
    header: header ? jsonHeader(header) : {},
    kvs: r.kvs.length ? r.kvs.map(jsonKv) : undefined,
    more: r.more || undefined,
    count: nz(r.count),
  };
}

function jsonPut(r: PutResult, header?: ResponseHeader): object {
  return { header: header ? jsonHeader(header) : {}, prev_kv: r.prevKv ? jsonKv(r.prevKv) : undefined };
}

function jsonDel(r: DeleteRangeResult, header?: ResponseHeader): object {
  return {
    header: header ? jsonHeader(header) : {},
    deleted: nz(r.deleted),
    prev_kvs: r.prevKvs.length ? r.prevKvs.map(jsonKv) : undefined,
  };
}

function jsonTxn(r: TxnResult, header?: ResponseHeader): object {
  return {
    header: header ? jsonHeader(header) : {},
    succeeded: r.succeeded || undefined,
    responses: r.responses.length ? r.responses.map(jsonResponseOp) : undefined,
  };
}

function jsonResponseOp(op: ResponseOp): object {
  if ('range' in op) return { Response: { response_range: jsonRange(op.range) } };
  if ('put' in op) return { Response: { response_put: jsonPut(op.put) } };
  if ('deleteRange' in op) return { Response: { response_delete_range: jsonDel(op.deleteRange) } };
  return { Response: { response_txn: jsonTxn(op.txn) } };
}

export const json = {
  get: (r: WithHeader<RangeResult>) => goJson(jsonRange(r, r.header)) + '\n',
  put: (r: WithHeader<PutResult>) => goJson(jsonPut(r, r.header)) + '\n',
  del: (r: WithHeader<DeleteRangeResult>) => goJson(jsonDel(r, r.header)) + '\n',
  txn: (r: WithHeader<TxnResult>) => goJson(jsonTxn(r, r.header)) + '\n',
  watch: (header: ResponseHeader, events: WatchEvent[]) =>
    goJson({
      Header: jsonHeader(header),
      Events: events.map((e) => ({ type: e.type === 'DELETE' ? 1 : undefined, kv: jsonKv(e.kv), prev_kv: e.prevKv ? jsonKv(e.prevKv) : undefined })),
      CompactRevision: 0,
      Canceled: false,
      Created: false,
    }) + '\n',
  memberList: (header: ResponseHeader, members: Member[]) =>
    goJson({
      header: jsonHeader(header),
      members: members.map((m) => ({
        ID: new RawNumber(hexToDecimal(m.id)),
        name: m.name || undefined,
        peerURLs: m.peerURLs,
        clientURLs: m.clientURLs.length ? m.clientURLs : undefined,
        isLearner: m.isLearner || undefined,
      })),
    }) + '\n',
  endpointStatus: (list: { ep: string; status: WithHeader<EndpointStatus> }[]) =>
    goJson(
      list.map(({ ep, status: s }) => ({
        Endpoint: ep,
        Status: {
          header: jsonHeader(s.header),
          version: s.version,
          dbSize: s.dbSize,
          leader: new RawNumber(hexToDecimal(s.leader)),
          raftIndex: s.raftIndex,
          raftTerm: s.raftTerm,
          raftAppliedIndex: s.raftAppliedIndex,
          errors: s.errors.length ? s.errors : undefined,
          dbSizeInUse: s.dbSizeInUse,
        },
      })),
    ) + '\n',
  endpointHealth: (list: HealthRow[]) =>
    goJson(list.map((h) => ({ endpoint: h.ep, health: h.health, took: h.took, error: h.error || undefined }))) + '\n',
  lease: (header: ResponseHeader, fields: Record<string, unknown>) =>
    goJson({ cluster_id: new RawNumber(hexToDecimal(header.clusterId)), member_id: new RawNumber(hexToDecimal(header.memberId)),
      revision: header.revision, raft_term: header.raftTerm, ...fields }) + '\n',
};

// ---- simple and table -------------------------------------------------------------------------

export const simple = {
  get: (r: RangeResult, valueOnly: boolean) => r.kvs.map((kv) => simpleKv(kv, valueOnly)).join(''),
  put: (r: PutResult) => 'OK\n' + (r.prevKv ? simpleKv(r.prevKv, false) : ''),
  del: (r: DeleteRangeResult) => `${r.deleted}\n` + r.prevKvs.map((kv) => simpleKv(kv, false)).join(''),
  txn(r: TxnResult): string {
    let out = r.succeeded ? 'SUCCESS\n' : 'FAILURE\n';
    for (const op of r.responses) {
      out += '\n';
      if ('range' in op) out += simple.get(op.range, false);
      else if ('put' in op) out += simple.put(op.put);
      else if ('deleteRange' in op) out += simple.del(op.deleteRange);
      else out += simple.txn(op.txn);
    }
    return out;
  },
  watch: (events: WatchEvent[]) =>
    events.map((e) => `${e.type}\n` + (e.prevKv ? simpleKv(e.prevKv, false) : '') + simpleKv(e.kv, false)).join(''),
  timeToLive(r: LeaseTimeToLiveResult, withKeys: boolean): string {
    if (r.grantedTtl === 0 && r.ttl === -1) return `lease ${leaseHex(r.id)} already expired\n`;
    let txt = `lease ${leaseHex(r.id)} granted with TTL(${r.grantedTtl}s), remaining(${r.ttl}s)`;
    if (withKeys) txt += `, attached keys([${r.keys.join(' ')}])`;
    return txt + '\n';
  },
};

/** printer.go makeMemberListTable */
export function memberListTable(members: Member[]): { header: string[]; rows: string[][] } {
  return {
    header: ['ID', 'Status', 'Name', 'Peer Addrs', 'Client Addrs', 'Is Learner'],
    rows: members.map((m) => [
      trimHex(m.id), m.name ? 'started' : 'unstarted', m.name, m.peerURLs.join(','), m.clientURLs.join(','), String(m.isLearner),
    ]),
  };
}

/** printer.go makeEndpointStatusTable (etcd 3.5 columns). */
export function endpointStatusTable(list: { ep: string; status: WithHeader<EndpointStatus> }[]): { header: string[]; rows: string[][] } {
  return {
    header: ['endpoint', 'ID', 'version', 'db size', 'is leader', 'is learner', 'raft term', 'raft index', 'raft applied index', 'errors'],
    rows: list.map(({ ep, status: s }) => [
      ep, trimHex(s.header.memberId), s.version, humanizeBytes(s.dbSize), String(s.leader === s.header.memberId),
      String(s.isLearner), String(s.raftTerm), String(s.raftIndex), String(s.raftAppliedIndex), s.errors.join(', '),
    ]),
  };
}

export interface HealthRow {
  ep: string;
  health: boolean;
  took: string;
  error: string;
}

export function endpointHealthTable(list: HealthRow[]): { header: string[]; rows: string[][] } {
  return { header: ['endpoint', 'health', 'took', 'error'], rows: list.map((h) => [h.ep, String(h.health), h.took, h.error]) };
}

export interface DbStatus {
  hash: number;
  revision: number;
  totalKey: number;
  totalSize: number;
}

export function dbStatusTable(ds: DbStatus): { header: string[]; rows: string[][] } {
  return {
    header: ['hash', 'revision', 'total keys', 'total size'],
    rows: [[ds.hash.toString(16), String(ds.revision), String(ds.totalKey), humanizeBytes(ds.totalSize)]],
  };
}

/** Simple output of a table: each row joined with ", " (printer_simple.go). */
export function simpleRows(t: { rows: string[][] }): string {
  return t.rows.map((r) => r.join(', ') + '\n').join('');
}

export function table(t: { header: string[]; rows: string[][] }): string {
  return renderTable(t.header, t.rows);
}

/** Go's %x of a uint64: lower-case hex without leading zeros. */
export function trimHex(hex: string): string {
  return hex.replace(/^0+(?=.)/, '');
}

/** Go's %016x of a lease ID. */
export function leaseHex(id: number): string {
  return id.toString(16).padStart(16, '0');
}
