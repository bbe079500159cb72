// The snapshot "file" (what `etcdctl snapshot save` writes): the serialized store plus an
// integrity hash, like etcd's db file with its appended sha256 (here a CRC-32C over the body).
import type { Result } from '../errors.ts';
import { fail, ok } from '../errors.ts';
import { crc32c } from './hash.ts';
import { utf8Length } from './keys.ts';
import type { StoreSnapshot } from './store.ts';

interface SnapshotFile {
  body: string;
  crc: number;
}

export function encodeSnapshotFile(snap: StoreSnapshot): string {
  const body = JSON.stringify(snap);
  return JSON.stringify({ body, crc: crc32c(body) } satisfies SnapshotFile);
}

const invalid = (why: string) => fail<never>({ code: 'InvalidArgument', message: `snapshot file is invalid: ${why}` });

export function decodeSnapshotFile(data: string): Result<StoreSnapshot> {
  let file: SnapshotFile;
  try {
    file = JSON.parse(data) as SnapshotFile;
  } catch {
    return invalid('not a snapshot file');
  }
  if (typeof file?.body !== 'string' || typeof file.crc !== 'number') return invalid('not a snapshot file');
  if (crc32c(file.body) !== file.crc) return invalid('hash mismatch (the file is corrupted)');
  const snap = JSON.parse(file.body) as StoreSnapshot;
  if (snap.format !== 'etcd-sim-mvcc/1') return invalid(`unknown format ${String(snap.format)}`);
  return ok(snap);
}

/** What `snapshot status` shows: hash, revision, total keys (rows), total size (bytes). */
export function snapshotFileStatus(data: string): Result<{ hash: number; revision: number; totalKey: number; totalSize: number }> {
  const snap = decodeSnapshotFile(data);
  if (!snap.ok) return snap;
  const totalKey = snap.value.keys.reduce((n, [, entries]) => n + entries.length, 0);
  return ok({ hash: crc32c(data), revision: snap.value.revision, totalKey, totalSize: utf8Length(data) });
}
