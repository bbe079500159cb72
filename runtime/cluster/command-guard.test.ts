// The last line of defence in cluster.kubectl() and cluster.etcdctl(): an exception inside the
// simulation answers as a failed command, never as a rejected promise, and the cluster goes on.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

describe('a bug inside the simulation answers as a failed command', { timeout: 60_000 }, () => {
  const cluster = createCluster({ seed: 11, topology: 'single-node' });
  const bug = (message: string): void => void cluster.internals.kernel.setTimer(1, () => { throw new Error(message); });

  it.each([
    ['kubectl', () => cluster.kubectl('get nodes')],
    ['etcdctl', () => cluster.etcdctl('get /registry/namespaces/default')],
  ])('%s: exit code 1 and the error on stderr', async (_, command) => {
    bug('a component broke');
    await expect(command()).resolves.toEqual({ stdout: '', stderr: 'error: internal error in the simulation: a component broke\n', exitCode: 1 });
  });

  it('the next command works', async () => {
    bug('once');
    expect((await cluster.kubectl('get nodes')).stderr).toBe('error: internal error in the simulation: once\n');
    expect((await cluster.kubectl('get nodes')).exitCode).toBe(0);
    expect((await cluster.etcdctl('endpoint health')).exitCode).toBe(0);
  });
});
