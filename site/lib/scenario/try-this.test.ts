import { describe, expect, it } from 'vitest';
import { checkTryThis } from './try-this.ts';

const scenario = { cluster: { topology: 'single-node' as const }, steps: ['kubectl create deployment web --image=nginx:1.27 --replicas=2', { wait: '20s' }] };

describe('checkTryThis: every "try this" prompt runs as its chapter says', () => {
  it('accepts prompts that run, in order, on the scenario cluster', async () => {
    await expect(checkTryThis('t', scenario, ['kubectl get pods', { run: 'kubectl get nodes', note: 'one node' }])).resolves.toBeDefined();
  });

  it('names the prompt whose command fails, with what it printed', async () => {
    await expect(checkTryThis('web', scenario, ['kubectl get pods', 'kubectl get pods nginx-missing']))
      .rejects.toThrow(/live cluster "web", try-this prompt 2 \("kubectl get pods nginx-missing"\) does not run as the chapter says: .*exited 1[\s\S]*NotFound/);
  });

  it('checks a failure the prompt is about (expectExit) and refuses a success in its place', async () => {
    await expect(checkTryThis('t', scenario, [{ run: 'kubectl auth can-i list pods --as jane', expectExit: 1 }])).resolves.toBeDefined();
    await expect(checkTryThis('t', scenario, [{ run: 'kubectl get pods', expectExit: 1 }])).rejects.toThrow(/exited 0, the scenario expects 1/);
  });

  it('completes a name with Tab as the terminal does, and refuses a prefix nothing starts with', async () => {
    await expect(checkTryThis('t', scenario, [{ run: 'kubectl describe pod web-', tab: true, expect: 'Name:' }])).resolves.toBeDefined();
    await expect(checkTryThis('t', scenario, [{ run: 'kubectl describe pod api-', tab: true }])).rejects.toThrow(/Tab completes nothing: no name starts with "api-"/);
  });

  it('plays the actions a note asks for first, and checks the output the note promises', async () => {
    const stopped = { run: 'kubectl get nodes', before: [{ fault: 'stopNode' as const, target: 'cp-1' }, { wait: '90s' }] };
    // a single-node cluster without its machine has no API server: the connection is refused
    await expect(checkTryThis('t', scenario, [{ ...stopped, expectExit: 1, expect: 'was refused' }])).resolves.toBeDefined();
    await expect(checkTryThis('t', scenario, [{ run: 'kubectl get nodes', expect: 'NotReady' }])).rejects.toThrow(/the output does not contain "NotReady"/);
  });
});
