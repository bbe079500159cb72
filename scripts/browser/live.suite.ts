// Browser suite for the live widgets (site/components/book/live), on /playground/ (an HA cluster
// with every widget): the cluster boots when scrolled into view; pause stops the clock and a step
// advances it exactly; the terminal prints kubectl's real columns; the event stream shows a pod's
// Scheduled, Pulling, Pulled, Created, Started in order; a stopped worker's pods are replaced; a
// stopped etcd leader is replaced; one etcd member cut off keeps writes working and two stop them;
// rewind and share links give back the same cluster; axe is clean in both themes and at phone
// width. Prints (does not assert) the time to interactive and the worker's size.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { BrowserSuite, BrowserSuiteContext } from './lib/context';
import { PHONE_VIEWPORT } from './lib/context';
import { formatViolations, runAxe } from './lib/axe';

const ROOT = resolve(import.meta.dirname, '../..');
const URL_PATH = '/playground/';

async function openPlayground(ctx: BrowserSuiteContext, options: Parameters<BrowserSuiteContext['newPage']>[0] = {}, hash = ''): Promise<Page> {
  const page = await ctx.newPage(options);
  await page.goto(`${ctx.baseUrl}${URL_PATH}${hash}`);
  await page.locator('[data-live-cluster]').first().scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-live-state="ready"]', { timeout: 60_000 });
  return page;
}

/** Simulated ms shown by the control bar ("t = 1m 23.4s"). */
async function simTime(page: Page): Promise<number> {
  const text = (await page.locator('.live-time').first().textContent()) ?? '';
  const m = /t = (?:(\d+)m )?([\d.]+)s/.exec(text);
  if (!m) throw new Error(`cannot read the simulated time from "${text}"`);
  return Math.round((Number(m[1] ?? 0) * 60 + Number(m[2])) * 1000);
}

async function run(page: Page, command: string): Promise<string> {
  const entries = page.locator('.live-terminal-entry');
  const before = await entries.count();
  const input = page.locator('.live-terminal-input').first();
  await input.fill(command);
  await input.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.live-terminal-entry').length > n, before, { timeout: 30_000 });
  return (await entries.last().locator('pre').textContent()) ?? '';
}

async function clickStep(page: Page, label: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    const t = await simTime(page);
    await page.getByRole('button', { name: label }).first().click();
    await page.waitForFunction((prev) => !document.querySelector('.live-time')?.textContent?.includes(prev), `t = ${t}`, { timeout: 30_000 }).catch(() => {});
    await page.waitForTimeout(50);
  }
}

/** Runs at "as fast as possible" until `done` holds in the page (or the real-time limit passes). */
async function runUntil(page: Page, done: () => boolean, limitMs = 60_000): Promise<void> {
  await page.locator('.live-select').first().selectOption('max');
  await page.locator('.live-play').first().click();
  try {
    await page.waitForFunction(done, undefined, { timeout: limitMs, polling: 200 });
  } finally {
    await page.locator('.live-play').first().click();
  }
}

function workerBytes(): { raw: number; gzip: number } | undefined {
  const dir = join(process.env['DIST_DIR'] ?? join(ROOT, 'dist'), '_astro');
  const file = readdirSync(dir).find((f) => f.startsWith('live-cluster.worker') && f.endsWith('.js'));
  if (!file) return undefined;
  const bytes = readFileSync(join(dir, file));
  return { raw: statSync(join(dir, file)).size, gzip: gzipSync(bytes).length };
}

const suite: BrowserSuite = async (ctx) => {
  const size = workerBytes();
  if (size) ctx.log(`runtime worker: ${(size.raw / 1024).toFixed(0)} KB raw, ${(size.gzip / 1024).toFixed(0)} KB gzip (target 250 KB gzip)`);

  const page = await openPlayground(ctx);
  const interactive = await page.evaluate(() => {
    const visible = performance.getEntriesByType('mark').find((m) => m.name.endsWith(':visible'));
    const ready = performance.getEntriesByType('mark').find((m) => m.name.endsWith(':interactive'));
    return visible && ready ? ready.startTime - visible.startTime : undefined;
  });
  ctx.log(`live cluster interactive ${interactive?.toFixed(0)} ms after it scrolled into view (HA cluster, 5 machines; target 1 s)`);

  await ctx.check('live: paused, the clock does not move; +1 s advances it by exactly one second', async () => {
    const t0 = await simTime(page);
    await page.waitForTimeout(700);
    if ((await simTime(page)) !== t0) throw new Error('the clock moved while paused');
    await clickStep(page, 'Advance 1 second of simulated time');
    const t1 = await simTime(page);
    if (t1 - t0 !== 1000) throw new Error(`+1 s moved the clock from ${t0} to ${t1} ms`);
  }, page);

  await ctx.check('live: the terminal runs kubectl with the real columns', async () => {
    const applied = await run(page, 'kubectl apply -f web.yaml');
    if (!applied.includes('deployment.apps/web created')) throw new Error(`apply printed: ${applied}`);
    await clickStep(page, 'Advance 10 seconds of simulated time', 3);
    const pods = await run(page, 'kubectl get pods');
    if (!/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/.test(pods)) throw new Error(`get pods printed: ${pods}`);
    if ((pods.match(/web-\S+\s+1\/1\s+Running/g) ?? []).length !== 3) throw new Error(`expected 3 Running web pods: ${pods}`);
  }, page);

  await ctx.check('live: the request trace follows kubectl apply through the API server, etcd, both controllers, the scheduler and the kubelet', async () => {
    await page.locator('.live-trace').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector('.live-trace-summary')?.textContent ?? '').startsWith('POST deployments default/web (201)'), undefined, { timeout: 20_000 });
    const rows = await page.locator('.live-trace-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
    const want = [/kubectl to kube-apiserver: POST deployments default\/web/, /kube-apiserver: Authorization.*RBAC: allowed by ClusterRoleBinding/, /kube-apiserver to etcd: txn create \/registry\/deployments\/default\/web/,
      /deployment controller to kube-apiserver: POST replicasets/, /replicaset controller to kube-apiserver: POST pods default\/web-/, /kube-scheduler to kube-apiserver: POST pods\/binding/,
      /kubelet \(worker-\d\) to container runtime \(worker-\d\): StartContainer/];
    let at = -1;
    for (const re of want) {
      const i = rows.findIndex((r, j) => j > at && re.test(r));
      if (i < 0) throw new Error(`no step after row ${at} matching ${re}: ${rows.slice(0, 60).join(' | ')}`);
      at = i;
    }
  }, page);

  await ctx.check('live: Tab completes a pod name from the cluster', async () => {
    const input = page.locator('.live-terminal-input').first();
    await input.fill('kubectl describe pod web-');
    await input.press('Tab');
    const value = await input.inputValue();
    if (!/^kubectl describe pod web-[a-z0-9]+-/.test(value)) throw new Error(`Tab gave "${value}"`);
    await input.fill('');
  }, page);

  await ctx.check('live: the event stream shows Scheduled, Pulling, Pulled, Created, Started for a pod, in order', async () => {
    const rows = await page.locator('.live-events-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
    const pod = rows.find((r) => r[2] === 'Scheduled' && r[3]!.startsWith('pod/web-'))?.[3];
    if (!pod) throw new Error('no Scheduled event for a web pod');
    const reasons = rows.filter((r) => r[3] === pod).map((r) => r[2]);
    if (reasons.join(',') !== 'Scheduled,Pulling,Pulled,Created,Started') throw new Error(`${pod}: ${reasons.join(', ')}`);
    await page.locator('.live-events input[type=search]').fill(pod);
    const shown = await page.locator('.live-events-table tbody tr').count();
    if (shown !== 5) throw new Error(`filtering by ${pod} shows ${shown} rows`);
    await page.locator('.live-events input[type=search]').fill('');
  }, page);

  await ctx.check('live: one etcd member cut off keeps writes working; two cut off stop them; reconnecting heals', async () => {
    try {
      await page.getByRole('button', { name: 'Cut off etcd on cp-3' }).click();
      await clickStep(page, 'Advance 10 seconds of simulated time');
      const one = await run(page, 'kubectl create configmap one');
      if (!one.includes('configmap/one created')) throw new Error(`with one member cut off: ${one}`);
      await page.getByRole('button', { name: 'Cut off etcd on cp-2' }).click();
      await clickStep(page, 'Advance 10 seconds of simulated time');
      const two = await run(page, 'kubectl create configmap two');
      const failed = await page.locator('.live-terminal-entry').last().evaluate((e) => e.classList.contains('live-terminal-failed'));
      if (!failed || two.includes('created')) throw new Error(`with two members cut off the write should fail: ${two}`);
    } finally {
      for (const m of ['cp-2', 'cp-3']) {
        const reconnect = page.getByRole('button', { name: `Reconnect etcd on ${m}` });
        if (await reconnect.count()) await reconnect.click();
      }
      await clickStep(page, 'Advance 10 seconds of simulated time', 2);
    }
    const three = await run(page, 'kubectl create configmap three');
    if (!three.includes('configmap/three created')) throw new Error(`after reconnecting: ${three}`);
  }, page);

  await ctx.check('live: stopping the etcd leader elects a new one', async () => {
    const leaderRow = page.locator('.live-members tbody tr', { hasText: '★ leader' });
    const before = (await leaderRow.locator('th').textContent()) ?? '';
    await page.getByRole('button', { name: `Stop etcd on ${before}` }).click();
    await clickStep(page, 'Advance 1 second of simulated time', 5);
    const after = (await leaderRow.locator('th').textContent()) ?? '';
    if (!after || after === before) throw new Error(`leader before ${before}, after ${after || 'none'}`);
    await page.getByRole('button', { name: `Start etcd on ${before}` }).click();
  }, page);

  await ctx.check('live: a stopped worker goes NotReady and its pods are replaced on the other worker', async () => {
    const onWorker1 = await page.locator('.live-node', { hasText: 'worker-1' }).locator('.live-pod [data-role="text"]', { hasText: /^web-/ }).count();
    await page.getByRole('button', { name: 'Stop worker-1' }).click();
    // NotReady after the 40 s grace period, evictions after the 300 s tolerations
    await runUntil(page, () => {
      const w2 = [...document.querySelectorAll('.live-node')].find((n) => n.textContent?.includes('worker-2'));
      const running = [...(w2?.querySelectorAll('.live-pod [data-role="text"]') ?? [])].filter((p) => /^web-\S+ Running 1\/1/.test(p.textContent ?? ''));
      return running.length === 3;
    }, 90_000);
    const status = (await page.locator('.live-node', { hasText: 'worker-1' }).locator('.live-state').textContent()) ?? '';
    if (!/NotReady|Unknown/.test(status) && onWorker1 > 0) throw new Error(`worker-1 shows "${status}"`);
    await page.getByRole('button', { name: 'Start worker-1' }).click();
  }, page);

  await ctx.check('live: rewinding to an earlier time gives back that time', async () => {
    const now = await simTime(page);
    const target = Math.round(now / 2 / 100) * 100;
    await page.locator('.live-timeline').first().evaluate((el, v) => {
      const input = el as HTMLInputElement;
      input.value = String(v);
      input.dispatchEvent(new Event('change'));
    }, target);
    await page.waitForFunction((t) => {
      const text = document.querySelector('.live-time')?.textContent ?? '';
      const m = /t = (?:(\d+)m )?([\d.]+)s/.exec(text);
      return m !== null && Math.abs((Number(m[1] ?? 0) * 60 + Number(m[2])) * 1000 - t) < 100;
    }, target, { timeout: 60_000 });
  }, page);

  await ctx.check('live: a share link replays the reader\'s commands into a fresh page', async () => {
    const share = page.locator('.live-controls').getByRole('button', { name: 'Share' });
    await share.click();
    await page.waitForFunction(() => location.hash.startsWith('#live='), undefined, { timeout: 10_000 });
    const hash = await page.evaluate(() => location.hash);
    const other = await openPlayground(ctx, {}, hash);
    const deploy = await run(other, 'kubectl get deployment web');
    if (!/web\s+\d\/3/.test(deploy)) throw new Error(`the shared cluster has no web Deployment: ${deploy}`);
  }, page);

  await ctx.check('live: the address chooses the playground\'s cluster (?topology=single-node&workers=2), and a bad one is refused plainly', async () => {
    const p = await openPlayground(ctx, {}, '?topology=single-node&workers=2');
    const nodes = await run(p, 'kubectl get nodes');
    if (!/cp-1\s+Ready/.test(nodes) || !/worker-2\s+Ready/.test(nodes) || /cp-2/.test(nodes)) throw new Error(nodes);
    const bad = await ctx.newPage();
    await bad.goto(`${ctx.baseUrl}${URL_PATH}?workers=500`);
    await bad.locator('[data-live-cluster]').first().scrollIntoViewIfNeeded();
    await bad.waitForSelector('[data-live-state="failed"]', { timeout: 20_000 });
    const text = (await bad.locator('.live-error').first().textContent()) ?? '';
    if (!text.includes('workers must be a whole number from 0 to 20')) throw new Error(text);
  });

  await ctx.check('live: budget: 10 nodes and 200 pods at 10x with the cluster view and events open (measured, reported)', async () => {
    const p = await openPlayground(ctx, {}, '?topology=single-node&workers=9');
    await run(p, 'kubectl create deployment load --image=nginx:1.27 --replicas=200');
    // a string, not a function: the bundler's name helpers do not exist in the page
    await p.evaluate(`(() => {
      const perf = { frames: [], longTasks: [], heapStart: performance.memory ? performance.memory.usedJSHeapSize : 0 };
      window.__perf = perf;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) perf.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: false });
      let last = performance.now();
      function frame(t) { perf.frames.push(t - last); last = t; requestAnimationFrame(frame); }
      requestAnimationFrame(frame);
    })()`);
    await p.locator('.live-select').first().selectOption('10');
    await p.locator('.live-play').first().click();
    const wallMs = 30_000;
    await p.waitForTimeout(wallMs);
    await p.locator('.live-play').first().click();
    const r = (await p.evaluate(`(() => {
      const perf = window.__perf;
      const f = [...perf.frames].sort((a, b) => a - b);
      const heapEnd = performance.memory ? performance.memory.usedJSHeapSize : 0;
      return { frames: f.length, p50: f[Math.floor(f.length * 0.5)] || 0, p95: f[Math.floor(f.length * 0.95)] || 0, over20: f.filter((x) => x > 20).length,
        longTasks: perf.longTasks.length, maxLong: Math.max(0, ...perf.longTasks), heapStartMB: perf.heapStart / 1048576, heapEndMB: heapEnd / 1048576 };
    })()`)) as { frames: number; p50: number; p95: number; over20: number; longTasks: number; maxLong: number; heapStartMB: number; heapEndMB: number };
    const sim = await simTime(p);
    const running = await p.locator('.live-pod [data-role="text"]', { hasText: /^load-\S+ Running/ }).count();
    ctx.log(`budget (10 nodes, 200 pods, 10x, ${wallMs / 1000} s wall, ${(sim / 1000).toFixed(0)} s simulated, ${running} load pods shown Running): ${(r.frames / (wallMs / 1000)).toFixed(1)} frames/s, frame p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, ${r.over20} frames over 20 ms, ${r.longTasks} main-thread tasks over 50 ms (longest ${r.maxLong.toFixed(0)} ms), page heap ${r.heapStartMB.toFixed(1)} -> ${r.heapEndMB.toFixed(1)} MB`);
    if (r.frames === 0) throw new Error('no frames were measured');
  });

  for (const [colorScheme, phone] of [['light', false], ['dark', false], ['light', true]] as const) {
    await ctx.check(`live: widgets in ${colorScheme}${phone ? ' at phone width' : ''}: axe clean, keyboard reaches the terminal`, async () => {
      const p = await openPlayground(ctx, { colorScheme, ...(phone ? { viewport: PHONE_VIEWPORT } : {}) });
      await run(p, 'kubectl get nodes');
      const violations = await runAxe(p);
      if (violations.length > 0) throw new Error(`axe found ${violations.length} violation(s):\n${formatViolations(violations)}`);
      await p.locator('.live-terminal-input').first().focus();
      await p.keyboard.type('kubectl get ns');
      await p.keyboard.press('Enter');
      await p.waitForFunction(() => [...document.querySelectorAll('.live-terminal-entry')].some((e) => e.textContent?.includes('kube-system')), undefined, { timeout: 20_000 });
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 1) throw new Error(`the page scrolls sideways by ${overflow} px`);
      await p.screenshot({ path: join(ROOT, 'test-results', 'screenshots', `live-playground-${colorScheme}${phone ? '-phone' : ''}.png`), fullPage: true });
    });
  }
};

export default suite;
