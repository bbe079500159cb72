// Learner TypeScript -> the CommonJS-style function body the sandbox evaluates. The work is done by
// prepare-source.ts (sucrase, then a rebuild SES's source checks cannot misfire on); this is the
// entry point of callers that only need the code (the "Run in cluster" worker). Grading loads the
// module through sandbox.ts loadLearnerModule, which also maps errors to the learner's lines.
import { prepareLearnerSource } from './prepare-source.ts';

export interface TranspileResult {
  code: string;
  transpileMs: number;
}

export function transpileLearnerCode(source: string): TranspileResult {
  const { code, transpileMs } = prepareLearnerSource(source);
  return { code, transpileMs };
}
