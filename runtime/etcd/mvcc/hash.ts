// CRC-32C (Castagnoli), the checksum etcd uses for hashkv and snapshot integrity.
// mirrors server/storage/mvcc/hash.go (crc32.MakeTable(crc32.Castagnoli))

const TABLE = buildTable(0x82f63b78);

function buildTable(poly: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** Incremental CRC-32C over the UTF-8 bytes of strings and the bytes of integers. */
export class Crc32c {
  private crc = 0xffffffff;

  updateByte(b: number): void {
    this.crc = (TABLE[(this.crc ^ b) & 0xff]! ^ (this.crc >>> 8)) >>> 0;
  }

  updateString(s: string): void {
    for (let i = 0; i < s.length; i++) {
      let cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      if (cp < 0x80) this.updateByte(cp);
      else if (cp < 0x800) {
        this.updateByte(0xc0 | (cp >> 6));
        this.updateByte(0x80 | (cp & 0x3f));
      } else if (cp < 0x10000) {
        this.updateByte(0xe0 | (cp >> 12));
        this.updateByte(0x80 | ((cp >> 6) & 0x3f));
        this.updateByte(0x80 | (cp & 0x3f));
      } else {
        this.updateByte(0xf0 | (cp >> 18));
        this.updateByte(0x80 | ((cp >> 12) & 0x3f));
        this.updateByte(0x80 | ((cp >> 6) & 0x3f));
        this.updateByte(0x80 | (cp & 0x3f));
      }
      cp = 0;
    }
  }

  /** Eight big-endian bytes, like etcd's revision encoding. */
  updateInt(n: number): void {
    const hi = Math.floor(n / 0x100000000);
    const lo = n >>> 0;
    for (const word of [hi >>> 0, lo]) {
      this.updateByte((word >>> 24) & 0xff);
      this.updateByte((word >>> 16) & 0xff);
      this.updateByte((word >>> 8) & 0xff);
      this.updateByte(word & 0xff);
    }
  }

  digest(): number {
    return (this.crc ^ 0xffffffff) >>> 0;
  }
}

export function crc32c(s: string): number {
  const h = new Crc32c();
  h.updateString(s);
  return h.digest();
}
