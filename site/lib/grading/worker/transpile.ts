// Learner TypeScript -> a CommonJS-style function body, with sucrase (a few ms, ~45 KB gzip;
// TypeScript's own transpiler would add ~1 MB). Type-only imports vanish; a remaining runtime
// import becomes a require() call that the sandbox refuses with a readable message.
import { transform } from 'sucrase';

export interface TranspileResult {
  code: string;
  transpileMs: number;
}

export function transpileLearnerCode(source: string): TranspileResult {
  const startMs = performance.now();
  const { code } = transform(source, {
    transforms: ['typescript', 'imports'],
    filePath: 'submission.ts',
    disableESTransforms: true,
    production: true,
  });
  return { code, transpileMs: performance.now() - startMs };
}
