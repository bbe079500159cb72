// Bytes a page loads, by kind, raw and gzip, computed from the dist/ files its requests mapped to.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';

export type ByteKind = 'html' | 'css' | 'js' | 'font' | 'other';

export interface ByteCount {
  raw: number;
  gzip: number;
  files: number;
}

export function byteKind(path: string): ByteKind {
  const ext = extname(path).toLowerCase();
  if (ext === '.html') return 'html';
  if (ext === '.css') return 'css';
  if (ext === '.js' || ext === '.mjs') return 'js';
  if (ext === '.woff2' || ext === '.woff' || ext === '.ttf') return 'font';
  return 'other';
}

export function countBytes(files: readonly string[]): Record<ByteKind, ByteCount> {
  const totals: Record<ByteKind, ByteCount> = {
    html: { raw: 0, gzip: 0, files: 0 },
    css: { raw: 0, gzip: 0, files: 0 },
    js: { raw: 0, gzip: 0, files: 0 },
    font: { raw: 0, gzip: 0, files: 0 },
    other: { raw: 0, gzip: 0, files: 0 },
  };
  for (const file of new Set(files)) {
    const body = readFileSync(file);
    const total = totals[byteKind(file)];
    total.raw += body.length;
    total.gzip += gzipSync(body, { level: 9 }).length;
    total.files += 1;
  }
  return totals;
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
