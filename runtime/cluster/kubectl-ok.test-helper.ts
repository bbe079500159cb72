// For e2e tests: run a kubectl command that must succeed cleanly (exit 0, nothing on stderr); a
// command that does not fails the test with what kubectl said. (Runtime files, helpers included,
// may not import vitest: see runtime/testing/boundaries.test.ts.)
import type { Cluster } from './cluster.ts';

export async function ok(cluster: Cluster, args: string, stdin?: string): Promise<string> {
  const r = await cluster.kubectl(args, stdin === undefined ? {} : { stdin });
  if (r.exitCode !== 0 || r.stderr !== '') {
    throw new Error(`kubectl ${args}: exit code ${r.exitCode}, stderr: ${JSON.stringify(r.stderr)}`);
  }
  return r.stdout;
}
