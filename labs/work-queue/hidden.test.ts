// Hidden grading suite for the work-queue lab. Behaviour only: client-go's work queue guarantees
// (deduplication, one worker per key, a key re-added while processed queued again on done, FIFO,
// shutdown), the delaying queue's addAfter (the earliest ready time wins), per-key exponential
// back-off (5 ms doubling to 1000 s, forget, numRequeues), a small controller driven by the
// learner's queue, and fast-check differential properties against the work queue the simulated
// controllers run on (runtime/client/workqueue, through runtime/controllers' public face).
// Tables ported from client-go util/workqueue queue_test.go (TestLen, TestReinsert, TestBasic,
// TestAddWhileProcessing, TestQueueDrainageUsingShutDownWithDrainWithDirtyItem), delaying_queue_test.go
// (TestSimpleQueue, TestDeduping, TestAddTwoFireEarly, TestCopyShifting), default_rate_limiters_test.go
// (TestItemExponentialFailureRateLimiter, TestItemExponentialFailureRateLimiterOverFlow) and
// rate_limiting_queue_test.go (TestRateLimitingQueue).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ItemExponentialFailureRateLimiter, RateLimitingQueue, type RateLimiter } from '../../runtime/controllers/index.ts';
import { createItemExponentialFailureRateLimiter, createWorkQueue } from '@lab/submission';
import { FakeClock } from './fake-clock.ts';

// ---------------------------------------------------------------- helpers

/** The queue's methods as the suite calls them (the learner's, or the runtime's behind an adapter). */
interface Queue {
  add(item: string): void;
  len(): number;
  get(): unknown;
  done(item: string): void;
  shutDown(): void;
  shuttingDown(): unknown;
  addAfter(item: string, delayMs: number): void;
  addRateLimited(item: string): void;
  forget(item: string): void;
  numRequeues(item: string): unknown;
}

const learnerQueue = (clock: FakeClock, limiter?: RateLimiter<string>): Queue =>
  (limiter ? createWorkQueue(clock, limiter) : createWorkQueue(clock)) as unknown as Queue;

/** The runtime's queue (what the simulated controllers use), with get() answering as the lab's does. */
function referenceQueue(clock: FakeClock, limiter: RateLimiter<string> = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000)): Queue {
  const q = new RateLimitingQueue<string>(clock, limiter);
  return {
    add: (k) => q.add(k),
    len: () => q.len(),
    get: () => {
      const item = q.get();
      return item === undefined ? { item: undefined, shutdown: q.isShuttingDown } : { item, shutdown: false };
    },
    done: (k) => q.done(k),
    shutDown: () => q.shutDown(),
    shuttingDown: () => q.isShuttingDown,
    addAfter: (k, ms) => q.addAfter(k, ms),
    addRateLimited: (k) => q.addRateLimited(k),
    forget: (k) => q.forget(k),
    numRequeues: (k) => q.numRequeues(k),
  };
}

/** A get() result in words: "a" (a key), nothing (a Go worker would wait), shutdown, or what it was. */
function said(result: unknown): string {
  if (result === null || typeof result !== 'object') return `${String(result)} (get() must return { item, shutdown })`;
  const { item, shutdown } = result as { item?: unknown; shutdown?: unknown };
  if (typeof item === 'string' && shutdown === false) return JSON.stringify(item);
  if (item === undefined && shutdown === false) return 'nothing';
  if (item === undefined && shutdown === true) return 'shutdown';
  return `{ item: ${typeof item === 'string' ? JSON.stringify(item) : String(item)}, shutdown: ${String(shutdown)} }`;
}

/** The key a get() handed out, if it handed one out. */
function keyOf(result: unknown): string | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const { item, shutdown } = result as { item?: unknown; shutdown?: unknown };
  return typeof item === 'string' && shutdown === false ? item : undefined;
}

const quote = (s: string) => JSON.stringify(s);
const num = (v: unknown) => (typeof v === 'number' ? String(v) : `${String(v)} (${typeof v}, not a number)`);

/** Calls get() until it hands out no key (at most 50 times); returns what each call said. */
function drain(q: Queue, doneEach = true): string[] {
  const out: string[] = [];
  for (let i = 0; i < 50; i++) {
    const r = q.get();
    out.push(said(r));
    const key = keyOf(r);
    if (key === undefined) break;
    if (doneEach) q.done(key);
  }
  return out;
}

function gets(q: Queue, what: string, want: string): string | undefined {
  const r = q.get();
  expect(said(r), what).toBe(want);
  return keyOf(r);
}

// ---------------------------------------------------------------- the queue

describe('the queue: deduplication and FIFO order', () => {
  it('hands keys out in the order they were added (FIFO)', () => {
    const q = learnerQueue(new FakeClock());
    for (const k of ['default/web', 'default/api', 'kube-system/dns', 'default/db']) q.add(k);
    expect(num(q.len()), 'len() after adding four keys').toBe('4');
    expect(drain(q), 'add web, api, dns, db; then get() until nothing').toEqual(['"default/web"', '"default/api"', '"kube-system/dns"', '"default/db"', 'nothing']);
  });

  it('TestLen: adding a key that is already waiting does not increase len()', () => {
    const q = learnerQueue(new FakeClock());
    q.add('foo');
    expect(num(q.len()), 'len() after add("foo")').toBe('1');
    q.add('bar');
    expect(num(q.len()), 'len() after add("bar")').toBe('2');
    q.add('foo');
    expect(num(q.len()), 'len() after adding "foo" again while it waits').toBe('2');
  });

  it('a key added again while it waits keeps its place in line', () => {
    const q = learnerQueue(new FakeClock());
    for (const k of ['a', 'b', 'c', 'a', 'b', 'a']) q.add(k);
    expect(drain(q), 'add a, b, c, a, b, a; then get() until nothing').toEqual(['"a"', '"b"', '"c"', 'nothing']);
  });

  it('fifty events for one ReplicaSet within a millisecond cause one get', () => {
    const q = learnerQueue(new FakeClock());
    for (let i = 0; i < 50; i++) q.add('default/web-cc68bb665');
    expect(num(q.len()), 'len() after 50 adds of one key').toBe('1');
    expect(drain(q), 'get() until nothing').toEqual(['"default/web-cc68bb665"', 'nothing']);
  });

  it('get() on an empty queue hands out nothing and does not say shutdown (a Go worker would wait there)', () => {
    const q = learnerQueue(new FakeClock());
    gets(q, 'get() on a new queue', 'nothing');
    q.add('a');
    gets(q, 'get() after add("a")', '"a"');
    gets(q, 'get() again', 'nothing');
    expect(q.shuttingDown(), 'shuttingDown() of a queue never shut down').toBe(false);
  });

  it('len() counts the keys waiting, not the ones being processed', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    q.add('b');
    gets(q, 'first get()', '"a"');
    expect(num(q.len()), 'len() with "a" being processed and "b" waiting').toBe('1');
    q.done('a');
    expect(num(q.len()), 'len() after done("a") (it was not added again)').toBe('1');
  });
});

describe('the queue: one worker per key', () => {
  it('TestReinsert: a key added back while it is processed is handed out again after done, and only then', () => {
    const q = learnerQueue(new FakeClock());
    q.add('foo');
    gets(q, 'get() after add("foo")', '"foo"');
    q.add('foo');
    expect(num(q.len()), 'len() after adding "foo" back while a worker processes it (it must wait for done)').toBe('0');
    gets(q, 'a second worker calling get() while "foo" is processed', 'nothing');
    q.done('foo');
    expect(num(q.len()), 'len() after done("foo"): it was added back meanwhile, so it waits again').toBe('1');
    gets(q, 'get() after done("foo")', '"foo"');
    q.done('foo');
    expect(num(q.len()), 'len() at the end').toBe('0');
    gets(q, 'get() at the end', 'nothing');
  });

  it('a key re-added while processed goes to the back of the line on done', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    gets(q, 'get()', '"a"');
    q.add('b');
    q.add('a');
    q.add('c');
    q.done('a');
    expect(drain(q), 'after: get a; add b, a, c; done a; then get() until nothing').toEqual(['"b"', '"c"', '"a"', 'nothing']);
  });

  it('a key re-added many times while processed is queued once on done', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    gets(q, 'get()', '"a"');
    for (let i = 0; i < 10; i++) q.add('a');
    q.done('a');
    expect(num(q.len()), 'len() after ten re-adds during processing, then done').toBe('1');
    expect(drain(q), 'get() until nothing').toEqual(['"a"', 'nothing']);
  });

  it('done() without a re-add does not put the key back', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    gets(q, 'get()', '"a"');
    q.done('a');
    expect(num(q.len()), 'len() after done("a")').toBe('0');
    gets(q, 'get() after done("a")', 'nothing');
    q.add('a');
    expect(drain(q), 'add("a") after it was done is a fresh add').toEqual(['"a"', 'nothing']);
  });

  it('other keys keep flowing while one is processed', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    q.add('b');
    gets(q, 'worker 1: get()', '"a"');
    q.add('a');
    q.add('c');
    gets(q, 'worker 2: get() while worker 1 holds "a" (re-added)', '"b"');
    gets(q, 'worker 3: get()', '"c"');
    gets(q, 'worker 4: get(): "a" is still processed by worker 1', 'nothing');
    q.done('b');
    q.done('c');
    gets(q, 'worker 2: get() after done("b") and done("c")', 'nothing');
    q.done('a');
    gets(q, 'worker 2: get() after done("a")', '"a"');
  });

  it('TestAddWhileProcessing: 50 keys, 10 workers each re-adding every key once: each key processed twice, never by two workers at once', () => {
    const q = learnerQueue(new FakeClock());
    for (let i = 0; i < 50; i++) q.add(`key-${i}`);
    const holding: (string | undefined)[] = new Array<string | undefined>(10).fill(undefined);
    const seenBy = new Map<string, number>();
    const counters = holding.map(() => new Map<string, number>());
    for (let round = 0; round < 40; round++) {
      // every idle worker takes a key, then every busy one finishes (re-adding it the first time it sees it)
      for (let w = 0; w < 10; w++) {
        if (holding[w] !== undefined) continue;
        const key = keyOf(q.get());
        if (key === undefined) continue;
        const other = holding.indexOf(key);
        expect(other, `round ${round}: worker ${w + 1} got ${quote(key)} while worker ${other + 1} was still processing it`).toBe(-1);
        holding[w] = key;
        seenBy.set(key, (seenBy.get(key) ?? 0) + 1);
      }
      for (let w = 0; w < 10; w++) {
        const key = holding[w];
        if (key === undefined) continue;
        const n = (counters[w]!.get(key) ?? 0) + 1;
        counters[w]!.set(key, n);
        if (n < 2) q.add(key);
        q.done(key);
        holding[w] = undefined;
      }
    }
    q.shutDown();
    expect(num(q.len()), 'len() at the end').toBe('0');
    const wrong = [...Array(50).keys()].map((i) => `key-${i}`).filter((k) => seenBy.get(k) !== 2);
    expect(wrong.map((k) => `${k} processed ${seenBy.get(k) ?? 0} times`), 'keys not processed exactly twice (once, then once more after the re-add)').toEqual([]);
  });
});

describe('the queue: shutDown', () => {
  it('keys already queued are still handed out after shutDown; then get() says shutdown', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    q.add('b');
    q.shutDown();
    expect(q.shuttingDown(), 'shuttingDown() after shutDown()').toBe(true);
    expect(drain(q), 'add a, b; shutDown; get() until it says shutdown').toEqual(['"a"', '"b"', 'shutdown']);
    gets(q, 'get() again', 'shutdown');
  });

  it('TestBasic: a key added after shutDown is ignored', () => {
    const q = learnerQueue(new FakeClock());
    q.add('a');
    q.shutDown();
    q.add('added after shutdown!');
    expect(num(q.len()), 'len() after an add that came after shutDown').toBe('1');
    expect(drain(q), 'get() until shutdown').toEqual(['"a"', 'shutdown']);
  });

  it('shutDown on an empty queue: get() says shutdown at once', () => {
    const q = learnerQueue(new FakeClock());
    q.shutDown();
    gets(q, 'get() on an empty queue after shutDown()', 'shutdown');
  });

  it('a key processed at shutDown and re-added before it is queued again by done (TestQueueDrainage...WithDirtyItem)', () => {
    const q = learnerQueue(new FakeClock());
    q.add('foo');
    gets(q, 'get()', '"foo"');
    q.add('foo');
    q.shutDown();
    gets(q, 'get() after shutDown, the queue empty (the re-added "foo" waits for done)', 'shutdown');
    q.done('foo');
    gets(q, 'get() after done("foo"): it had been added again before the shutdown', '"foo"');
    q.done('foo');
    gets(q, 'get() after the last done', 'shutdown');
  });

  it('addAfter and addRateLimited after shutDown are ignored, and keys waiting for their delay never arrive', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('waiting', 10);
    q.shutDown();
    q.addAfter('late', 5);
    q.addAfter('now', 0);
    q.addRateLimited('retry');
    clock.advance(2_000_000);
    expect(num(q.len()), 'len() long after the delays would have ended').toBe('0');
    gets(q, 'get()', 'shutdown');
  });
});

// ---------------------------------------------------------------- addAfter

describe('addAfter: the delaying queue', () => {
  it('TestSimpleQueue: a key added after 50 ms is not there at 49 ms and is queued at 50 ms', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('foo', 50);
    expect(num(q.len()), 'len() right after addAfter("foo", 50)').toBe('0');
    clock.advance(49);
    expect(num(q.len()), 'len() at 49 ms').toBe('0');
    gets(q, 'get() at 49 ms', 'nothing');
    clock.advance(1);
    expect(num(q.len()), 'len() at 50 ms').toBe('1');
    gets(q, 'get() at 50 ms', '"foo"');
    q.done('foo');
    clock.advance(1000);
    expect(num(q.len()), 'len() later (it was added once)').toBe('0');
  });

  it('a delay of 0 or less adds at once', () => {
    const q = learnerQueue(new FakeClock());
    q.addAfter('zero', 0);
    q.addAfter('negative', -5);
    expect(num(q.len()), 'len() after addAfter(k, 0) and addAfter(k, -5), no time passed').toBe('2');
    expect(drain(q), 'get() until nothing').toEqual(['"zero"', '"negative"', 'nothing']);
  });

  it('TestDeduping: a key waiting for its delay is queued once, at the earlier of two ready times', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('foo', 50);
    q.addAfter('foo', 70);
    clock.advance(50);
    expect(num(q.len()), 'addAfter 50 ms then 70 ms: len() at 50 ms').toBe('1');
    gets(q, 'get() at 50 ms', '"foo"');
    q.done('foo');
    clock.advance(30);
    expect(num(q.len()), 'len() at 80 ms: the 70 ms request was merged into the earlier one').toBe('0');

    q.addAfter('foo', 70);
    q.addAfter('foo', 50);
    clock.advance(50);
    expect(num(q.len()), 'addAfter 70 ms then 50 ms: len() 50 ms later (the earlier time wins)').toBe('1');
    gets(q, 'get()', '"foo"');
    q.done('foo');
    clock.advance(30);
    expect(num(q.len()), 'len() 80 ms later: queued once only').toBe('0');
  });

  it('TestAddTwoFireEarly: keys enter the queue when their own delays end', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('first', 1000);
    q.addAfter('second', 50);
    clock.advance(60);
    expect(num(q.len()), 'len() at 60 ms').toBe('1');
    gets(q, 'get() at 60 ms', '"second"');
    q.done('second');
    q.addAfter('third', 2000);
    clock.advance(1000);
    expect(num(q.len()), 'len() at 1060 ms').toBe('1');
    gets(q, 'get() at 1060 ms', '"first"');
    q.done('first');
    clock.advance(2000);
    gets(q, 'get() at 3060 ms', '"third"');
  });

  it('TestCopyShifting: keys whose delays ended meanwhile are queued in the order of their ready times', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('foo', 300);
    q.addAfter('bar', 200);
    q.addAfter('baz', 100);
    clock.advance(1000);
    expect(drain(q), 'addAfter foo 300, bar 200, baz 100 ms; 1 s later get() until nothing').toEqual(['"baz"', '"bar"', '"foo"', 'nothing']);
  });

  it('equal ready times: the keys enter in the order their delays were set', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('b', 20);
    clock.advance(10);
    q.addAfter('a', 10);
    q.addAfter('c', 10);
    clock.advance(10);
    expect(drain(q), 'b at 0 ms for 20 ms; a and c at 10 ms for 10 ms; get() at 20 ms').toEqual(['"b"', '"a"', '"c"', 'nothing']);
  });

  it('a key added directly while it waits for a delay is processed at once, and added again when the delay ends', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.addAfter('a', 100);
    q.add('a');
    gets(q, 'get() at 0 ms', '"a"');
    q.done('a');
    clock.advance(100);
    gets(q, 'get() at 100 ms (the delayed add still happens)', '"a"');
  });

  it('a delayed key that ends its delay while processed waits for done', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.add('a');
    gets(q, 'get()', '"a"');
    q.addAfter('a', 10);
    clock.advance(10);
    gets(q, 'another worker at 10 ms, "a" still processed', 'nothing');
    q.done('a');
    gets(q, 'get() after done("a")', '"a"');
  });
});

// ---------------------------------------------------------------- the rate limiter

function whens(limiter: RateLimiter<string>, key: string, times: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < times; i++) out.push(num(limiter.when(key, 0)));
  return out;
}

describe('createItemExponentialFailureRateLimiter', () => {
  it('TestItemExponentialFailureRateLimiter: 1, 2, 4, 8, 16 ms; keys are independent; forget resets', () => {
    const limiter = createItemExponentialFailureRateLimiter(1, 1000);
    expect(whens(limiter, 'one', 5), 'base 1 ms, max 1 s: five when("one")').toEqual(['1', '2', '4', '8', '16']);
    expect(num(limiter.numRequeues('one')), 'numRequeues("one") after five when').toBe('5');
    expect(whens(limiter, 'two', 2), 'two when("two")').toEqual(['1', '2']);
    expect(num(limiter.numRequeues('two')), 'numRequeues("two")').toBe('2');
    limiter.forget('one');
    expect(num(limiter.numRequeues('one')), 'numRequeues("one") after forget("one")').toBe('0');
    expect(whens(limiter, 'one', 1), 'when("one") after forget').toEqual(['1']);
    expect(num(limiter.numRequeues('two')), 'numRequeues("two") after forget("one")').toBe('2');
  });

  it('TestItemExponentialFailureRateLimiterOverFlow: 32 ms after 5 failures; the cap after 1000, however large', () => {
    let limiter = createItemExponentialFailureRateLimiter(1, 1000 * 1000);
    whens(limiter, 'one', 5);
    expect(num(limiter.when('one', 0)), 'base 1 ms: the 6th when("one")').toBe('32');
    whens(limiter, 'overflow1', 1000);
    expect(num(limiter.when('overflow1', 0)), 'max 1000 s: the 1001st when').toBe('1000000');
    limiter = createItemExponentialFailureRateLimiter(60_000, 1000 * 3_600_000);
    whens(limiter, 'two', 2);
    expect(num(limiter.when('two', 0)), 'base 1 min: the 3rd when("two") (ms)').toBe('240000');
    whens(limiter, 'overflow2', 1000);
    expect(num(limiter.when('overflow2', 0)), 'max 1000 h: the 1001st when (ms)').toBe('3600000000');
  });

  it('the controllers\' defaults: 5, 10, 20 ... ms, 655.36 s at the 18th failure, then 1000 s for good', () => {
    const limiter = createItemExponentialFailureRateLimiter(5, 1_000_000);
    const want = [...Array(18).keys()].map((i) => String(5 * 2 ** i));
    expect(whens(limiter, 'default/web', 18), 'base 5 ms, max 1000 s: the first 18 delays').toEqual(want);
    expect(whens(limiter, 'default/web', 3), 'failures 19 to 21').toEqual(['1000000', '1000000', '1000000']);
    expect(num(limiter.numRequeues('default/web')), 'numRequeues counts every when, past the cap too').toBe('21');
  });

  it('no integer overflow: 31, 32, 40, 64 and 2000 failures still give the cap', () => {
    const limiter = createItemExponentialFailureRateLimiter(5, 1_000_000);
    const got = whens(limiter, 'k', 2000);
    const bad = [31, 32, 33, 40, 64, 65, 1024, 1025, 2000].filter((n) => got[n - 1] !== '1000000').map((n) => `failure ${n}: ${got[n - 1]}`);
    expect(bad, 'delays that are not the 1000000 ms cap').toEqual([]);
  });

  it('numRequeues of a key never seen is 0; forget of one is harmless', () => {
    const limiter = createItemExponentialFailureRateLimiter(5, 1_000_000);
    expect(num(limiter.numRequeues('never')), 'numRequeues of an unknown key').toBe('0');
    limiter.forget('never');
    expect(num(limiter.numRequeues('never')), 'after forget of an unknown key').toBe('0');
    expect(whens(limiter, 'never', 1), 'its first when').toEqual(['5']);
    expect(num(limiter.numRequeues('never')), 'numRequeues after one when').toBe('1');
  });

  it('a base larger than the maximum gives the maximum', () => {
    const limiter = createItemExponentialFailureRateLimiter(100, 30);
    expect(whens(limiter, 'k', 3), 'base 100 ms, max 30 ms').toEqual(['30', '30', '30']);
  });
});

// ---------------------------------------------------------------- the rate-limited queue

/** Fails key over and over: get, addRateLimited, done; returns the time each retry appeared. */
function retryTimes(q: Queue, clock: FakeClock, key: string, failures: number): number[] {
  const times: number[] = [];
  q.add(key);
  for (let i = 0; i < failures; i++) {
    let waited = 0;
    while (keyOf(q.get()) === undefined) {
      clock.advance(1);
      if (++waited > 3000) throw new Error(`${key} never came back after its failure ${i} (waited 3 s of simulated time)`);
    }
    times.push(clock.now());
    q.addRateLimited(key);
    q.done(key);
  }
  return times;
}

describe('the rate-limited queue', () => {
  it('TestRateLimitingQueue: back-off per key, counted by numRequeues, reset by forget', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock, createItemExponentialFailureRateLimiter(1, 1000));
    q.addRateLimited('one');
    q.addRateLimited('one');
    expect(num(q.numRequeues('one')), 'numRequeues("one") after two addRateLimited').toBe('2');
    q.addRateLimited('two');
    clock.advance(1);
    expect(drain(q), 'at 1 ms (the first delay of each key, 1 ms, is the earlier one)').toEqual(['"one"', '"two"', 'nothing']);
    clock.advance(10);
    expect(num(q.len()), 'len() later: each key was queued once').toBe('0');
    q.forget('one');
    expect(num(q.numRequeues('one')), 'numRequeues("one") after forget').toBe('0');
    expect(num(q.numRequeues('two')), 'numRequeues("two")').toBe('1');
    q.addRateLimited('one');
    clock.advance(1);
    expect(drain(q), 'addRateLimited("one") after forget: back after 1 ms').toEqual(['"one"', 'nothing']);
  });

  it('with the default limiter a key failing again and again is retried 5, 10, 20, 40, 80 ms later', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    const times = retryTimes(q, clock, 'default/web', 6);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps, 'the time between one failure and the next get() of the key').toEqual([5, 10, 20, 40, 80]);
    expect(num(q.numRequeues('default/web')), 'numRequeues after 6 failures').toBe('6');
  });

  it('forget after a success resets the back-off: the next failure waits 5 ms again', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    retryTimes(q, clock, 'default/web', 4);
    clock.advance(1000);
    const r = q.get();
    expect(said(r), 'get() after the 4th retry').toBe('"default/web"');
    q.forget('default/web');
    q.done('default/web');
    expect(num(q.numRequeues('default/web')), 'numRequeues after forget').toBe('0');
    const start = clock.now();
    const times = retryTimes(q, clock, 'default/web', 2);
    expect(times.map((t) => t - start), 'a new failure after the success: first try at once, the retry 5 ms later').toEqual([0, 5]);
  });

  it('a key failing while others succeed does not hold them up', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.add('bad');
    q.add('good');
    gets(q, 'get()', '"bad"');
    q.addRateLimited('bad');
    q.done('bad');
    gets(q, 'get() right after "bad" failed', '"good"');
    q.forget('good');
    q.done('good');
    gets(q, 'get() at 4 ms', 'nothing');
    clock.advance(5);
    gets(q, 'get() at 5 ms', '"bad"');
  });

  it('addRateLimited of a key still processed: it is back after its delay, once done', () => {
    const clock = new FakeClock();
    const q = learnerQueue(clock);
    q.add('k');
    gets(q, 'get()', '"k"');
    q.addRateLimited('k');
    clock.advance(20);
    gets(q, 'another worker at 20 ms (the delay ended, but "k" is still processed)', 'nothing');
    q.done('k');
    gets(q, 'get() after done("k")', '"k"');
  });

  it('uses the rate limiter it is given: its delays, its forget and its numRequeues', () => {
    const calls: string[] = [];
    const limiter: RateLimiter<string> = {
      when: (item, nowMs) => {
        calls.push(`when(${item}, ${nowMs})`);
        return 7;
      },
      forget: (item) => {
        calls.push(`forget(${item})`);
      },
      numRequeues: (item) => {
        calls.push(`numRequeues(${item})`);
        return 42;
      },
    };
    const clock = new FakeClock();
    clock.advance(100);
    const q = learnerQueue(clock, limiter);
    q.addRateLimited('k');
    clock.advance(6);
    gets(q, 'get() 6 ms after addRateLimited (the given limiter says 7 ms)', 'nothing');
    clock.advance(1);
    gets(q, 'get() 7 ms after addRateLimited', '"k"');
    q.forget('k');
    expect(num(q.numRequeues('k')), 'numRequeues from the given limiter').toBe('42');
    expect(calls, 'the calls the queue made to the limiter it was given').toEqual(['when(k, 100)', 'forget(k)', 'numRequeues(k)']);
  });
});

// ---------------------------------------------------------------- a controller on the queue

interface LoopOutcome {
  log: string[];
  problems: string[];
}

/**
 * A controller as kube-controller-manager runs one (processNextWorkItem): `workers` workers take
 * keys, reconcile for a while, then forget (success) or addRateLimited (failure), then done.
 * Events are informer notifications adding keys. Every step is driven by the clock.
 */
function runController(make: (clock: FakeClock) => Queue, workers: number, events: readonly { at: number; key: string }[], untilMs: number): LoopOutcome {
  const clock = new FakeClock();
  const q = make(clock);
  const holding: (string | undefined)[] = new Array<string | undefined>(workers).fill(undefined);
  const attempts = new Map<string, number>();
  const lastEvent = new Map<string, number>();
  const lastSuccessStart = new Map<string, number>();
  const log: string[] = [];
  const problems: string[] = [];
  let order = 0;
  const syncMs = (key: string, attempt: number) => 2 + ((key.length * 13 + attempt * 7) % 37);
  const fails = (key: string, attempt: number) => (key === 'default/db' && attempt <= 6) || (key === 'default/flaky' && attempt % 3 === 1);

  const pump = (): void => {
    for (let w = 0; w < workers; w++) {
      if (holding[w] !== undefined) continue;
      const key = keyOf(q.get());
      if (key === undefined) return;
      const other = holding.indexOf(key);
      if (other >= 0) problems.push(`at ${clock.now()} ms worker ${w + 1} was handed ${quote(key)} while worker ${other + 1} was still reconciling it`);
      holding[w] = key;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      const started = order++;
      const fail = fails(key, attempt);
      log.push(`${clock.now()} ms: worker ${w + 1} reconciles ${key} (attempt ${attempt})`);
      clock.setTimer(syncMs(key, attempt), () => {
        holding[w] = undefined;
        if (fail) {
          log.push(`${clock.now()} ms: ${key} failed`);
          q.addRateLimited(key);
        } else {
          lastSuccessStart.set(key, started);
          q.forget(key);
        }
        q.done(key);
      });
    }
  };
  clock.afterFire = pump;
  for (const e of events) {
    clock.setTimer(e.at, () => {
      lastEvent.set(e.key, order++);
      q.add(e.key);
    });
  }
  clock.runUntil(untilMs);
  for (const [key, at] of lastEvent) {
    if ((lastSuccessStart.get(key) ?? -1) < at) problems.push(`${key} changed and was never reconciled successfully afterwards: an update was lost`);
  }
  const stuck = holding.filter((k) => k !== undefined);
  if (stuck.length) problems.push(`workers still reconciling at the end: ${stuck.join(', ')}`);
  return { log, problems };
}

/** Deterministic informer events: bursts of one key, and a steady trickle of all of them. */
function controllerEvents(): { at: number; key: string }[] {
  const keys = ['default/web', 'default/api', 'default/db', 'default/flaky', 'kube-system/dns', 'default/cache', 'default/queue', 'shop/cart'];
  const events: { at: number; key: string }[] = [];
  let x = 12345;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  for (let i = 0; i < 300; i++) events.push({ at: next() % 3000, key: keys[next() % keys.length]! });
  for (let i = 0; i < 50; i++) events.push({ at: 1000, key: 'default/web' });
  for (let i = 0; i < 20; i++) events.push({ at: 1500 + i, key: 'default/api' });
  return events;
}

function firstDifference(want: readonly string[], got: readonly string[]): string {
  const n = Math.max(want.length, got.length);
  for (let i = 0; i < n; i++) {
    if (want[i] !== got[i]) {
      const before = want.slice(Math.max(0, i - 4), i).map((l) => `  ${l}`).join('\n');
      return `the runs part at line ${i + 1}:\n${before}\n  expected: ${want[i] ?? '(the run had ended)'}\n  got:      ${got[i] ?? '(your run had ended)'}`;
    }
  }
  return 'no difference';
}

describe('a controller on your queue', () => {
  it('three workers, eight keys, 370 events, slow and failing reconciles: never two workers on one key, no update lost', () => {
    const got = runController((c) => learnerQueue(c), 3, controllerEvents(), 20_000);
    expect(got.problems, 'what went wrong in the controller driven by your queue').toEqual([]);
  });

  it('reconciles the same keys at the same moments as the controllers\' own queue', () => {
    const want = runController((c) => referenceQueue(c), 3, controllerEvents(), 20_000);
    const got = runController((c) => learnerQueue(c), 3, controllerEvents(), 20_000);
    if (want.log.join('\n') !== got.log.join('\n')) expect.fail(firstDifference(want.log, got.log));
    expect(got.log.length, 'reconciles and failures logged').toBe(want.log.length);
  });

  it('one worker, a key whose reconcile fails six times: retried after 5, 10, 20, 40, 80 and 160 ms', () => {
    const got = runController((c) => learnerQueue(c), 1, [{ at: 0, key: 'default/db' }], 5000);
    expect(got.problems).toEqual([]);
    const starts = got.log.filter((l) => l.includes('reconciles')).map((l) => Number(l.split(' ')[0]));
    const ends = got.log.filter((l) => l.includes('failed')).map((l) => Number(l.split(' ')[0]));
    expect(starts.length, 'reconciles of default/db (6 failures, then a success)').toBe(7);
    expect(starts.slice(1).map((s, i) => s - ends[i]!), 'the wait between each failure and the next reconcile').toEqual([5, 10, 20, 40, 80, 160]);
  });
});

// ---------------------------------------------------------------- differential properties

const SEED = 20_260_605;

type Step =
  | { op: 'add'; key: string }
  | { op: 'get'; worker: number }
  | { op: 'done'; worker: number }
  | { op: 'addRateLimited'; key: string }
  | { op: 'forget'; key: string }
  | { op: 'numRequeues'; key: string }
  | { op: 'addAfter'; key: string; ms: number }
  | { op: 'wait'; ms: number }
  | { op: 'shutDown' };

const keyArb = fc.constantFrom('a', 'b', 'c', 'd');
const workerArb = fc.integer({ min: 1, max: 3 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: keyArb.map((key): Step => ({ op: 'add', key })) },
  { weight: 10, arbitrary: workerArb.map((worker): Step => ({ op: 'get', worker })) },
  { weight: 8, arbitrary: workerArb.map((worker): Step => ({ op: 'done', worker })) },
  { weight: 5, arbitrary: keyArb.map((key): Step => ({ op: 'addRateLimited', key })) },
  { weight: 2, arbitrary: keyArb.map((key): Step => ({ op: 'forget', key })) },
  { weight: 2, arbitrary: keyArb.map((key): Step => ({ op: 'numRequeues', key })) },
  { weight: 2, arbitrary: fc.record({ key: keyArb, ms: fc.constantFrom(0, 1, 5, 10, 20, 50) }).map((r): Step => ({ op: 'addAfter', ...r })) },
  { weight: 5, arbitrary: fc.constantFrom(1, 2, 3, 5, 10, 20, 40, 100, 1000).map((ms): Step => ({ op: 'wait', ms })) },
  { weight: 1, arbitrary: fc.constant<Step>({ op: 'shutDown' }) },
);

interface Replay {
  lines: string[];
  problem?: string;
}

function attempt(fn: () => unknown): { value?: unknown; threw?: string } {
  try {
    return { value: fn() };
  } catch (e) {
    return { threw: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Runs the steps on the runtime's queue and the learner's in lockstep, each on its own clock, and
 * stops at the first step where they answer differently. A worker's get() is skipped while it holds
 * a key, its done() while it holds none; len() is compared after every step.
 */
function replay(steps: readonly Step[], limiter: () => [RateLimiter<string>, RateLimiter<string>] = () => [new ItemExponentialFailureRateLimiter(5, 1_000_000), createItemExponentialFailureRateLimiter(5, 1_000_000)]): Replay {
  const [refLimiter, learnerLimiter] = limiter();
  const refClock = new FakeClock();
  const learnerClock = new FakeClock();
  const ref = referenceQueue(refClock, refLimiter);
  const learner = learnerQueue(learnerClock, learnerLimiter);
  const holding = new Map<number, string>();
  const lines: string[] = [];
  for (const step of steps) {
    let call: string;
    let want: { value?: unknown; threw?: string };
    let got: { value?: unknown; threw?: string };
    let show: (v: unknown) => string = () => '';
    switch (step.op) {
      case 'add':
      case 'addRateLimited':
      case 'forget':
        call = `q.${step.op}(${quote(step.key)})`;
        want = attempt(() => ref[step.op](step.key));
        got = attempt(() => learner[step.op](step.key));
        break;
      case 'numRequeues':
        call = `q.numRequeues(${quote(step.key)})`;
        want = attempt(() => ref.numRequeues(step.key));
        got = attempt(() => learner.numRequeues(step.key));
        show = num;
        break;
      case 'addAfter':
        call = `q.addAfter(${quote(step.key)}, ${step.ms})`;
        want = attempt(() => ref.addAfter(step.key, step.ms));
        got = attempt(() => learner.addAfter(step.key, step.ms));
        break;
      case 'wait':
        call = `clock +${step.ms} ms (now ${refClock.now() + step.ms} ms)`;
        want = attempt(() => refClock.advance(step.ms));
        got = attempt(() => learnerClock.advance(step.ms));
        break;
      case 'shutDown':
        call = 'q.shutDown()';
        want = attempt(() => ref.shutDown());
        got = attempt(() => learner.shutDown());
        break;
      case 'get': {
        if (holding.has(step.worker)) continue;
        call = `worker ${step.worker}: q.get()`;
        want = attempt(() => ref.get());
        got = attempt(() => learner.get());
        show = said;
        const key = keyOf(want.value);
        if (key !== undefined) holding.set(step.worker, key);
        break;
      }
      case 'done': {
        const key = holding.get(step.worker);
        if (key === undefined) continue;
        call = `worker ${step.worker}: q.done(${quote(key)})`;
        holding.delete(step.worker);
        want = attempt(() => ref.done(key));
        got = attempt(() => learner.done(key));
        break;
      }
    }
    const wantText = want.threw !== undefined ? `an error (${want.threw})` : show(want.value);
    const gotText = got.threw !== undefined ? `an error: ${got.threw}` : show(got.value);
    if (wantText !== gotText) {
      let why = '';
      const worker = step.op === 'get' ? step.worker : 0;
      const handed = step.op === 'get' ? keyOf(got.value) : undefined;
      if (handed !== undefined) {
        const holder = [...holding].find(([w, k]) => k === handed && w !== worker);
        if (holder) why = ` (worker ${holder[0]} is still processing ${quote(handed)})`;
      }
      return { lines, problem: `${String(lines.length + 1).padStart(3)}. ${call}\n     expected: ${wantText}\n     got:      ${gotText}${why}` };
    }
    const wantLen = num(ref.len());
    const gotLenResult = attempt(() => learner.len());
    const gotLen = gotLenResult.threw !== undefined ? `an error: ${gotLenResult.threw}` : num(gotLenResult.value);
    if (wantLen !== gotLen) {
      return { lines, problem: `${String(lines.length + 1).padStart(3)}. ${call}${wantText ? ` -> ${wantText}` : ''}\n     then q.len(): expected ${wantLen}, got ${gotLen}` };
    }
    lines.push(`${String(lines.length + 1).padStart(3)}. ${call}${wantText ? ` -> ${wantText}` : ''}   (len ${wantLen})`);
  }
  return { lines };
}

function queueDifferential(what: string, arb: fc.Arbitrary<Step[]>, numRuns: number, setup: string, limiter?: Parameters<typeof replay>[1]): void {
  const details = fc.check(
    fc.property(arb, (steps) => {
      const r = replay(steps, limiter);
      if (r.problem !== undefined) throw new Error(r.problem);
    }),
    { seed: SEED, numRuns },
  );
  if (details.failed && details.counterexample) {
    const [steps] = details.counterexample;
    let r: Replay;
    try {
      r = replay(steps, limiter);
    } catch (e) {
      r = { lines: [], problem: `the suite could not replay it: ${e instanceof Error ? e.message : String(e)}` };
    }
    expect.fail(
      `${what}: your queue differs from client-go's (the runtime's) (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated runs).\n` +
        `Shortest failing run found, ${setup}; workers 1 to 3 each hold at most one key:\n${r.lines.join('\n')}\n${r.problem ?? String(details.errorInstance)}`,
    );
  }
  expect(details.numRuns, `${what}: generated runs`).toBe(numRuns);
}

describe('differential: your queue against client-go\'s', () => {
  it('random add/get/done/addRateLimited/forget/addAfter/shutDown runs with three workers and a clock, default back-off', () => {
    queueDifferential(
      'random runs',
      fc.array(stepArb, { minLength: 1, maxLength: 60 }),
      1500,
      'q = createWorkQueue(clock) with the clock at 0 ms',
    );
  });

  it('long runs without shutDown, back-off 1 ms doubling to 50 ms (the cap reached often)', () => {
    const noShutdown = stepArb.filter((s) => s.op !== 'shutDown');
    queueDifferential(
      'long runs',
      fc.array(noShutdown, { minLength: 20, maxLength: 150 }),
      400,
      'q = createWorkQueue(clock, createItemExponentialFailureRateLimiter(1, 50)) with the clock at 0 ms',
      () => [new ItemExponentialFailureRateLimiter(1, 50), createItemExponentialFailureRateLimiter(1, 50)],
    );
  });

  type LimiterStep = { op: 'when'; key: string; times: number } | { op: 'forget'; key: string } | { op: 'numRequeues'; key: string };
  const limiterCase = fc.record({
    base: fc.constantFrom(1, 5, 10, 1000),
    max: fc.constantFrom(1, 7, 1000, 1_000_000, 3_600_000),
    steps: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.record({ key: keyArb, times: fc.integer({ min: 1, max: 40 }) }).map((r): LimiterStep => ({ op: 'when', ...r })) },
        { weight: 2, arbitrary: keyArb.map((key): LimiterStep => ({ op: 'forget', key })) },
        { weight: 2, arbitrary: keyArb.map((key): LimiterStep => ({ op: 'numRequeues', key })) },
      ),
      { minLength: 1, maxLength: 30 },
    ),
  });

  function limiterReplay(c: { base: number; max: number; steps: LimiterStep[] }): string | undefined {
    const ref: RateLimiter<string> = new ItemExponentialFailureRateLimiter<string>(c.base, c.max);
    const mine = createItemExponentialFailureRateLimiter(c.base, c.max);
    const lines: string[] = [];
    for (const s of c.steps) {
      if (s.op === 'forget') {
        ref.forget(s.key);
        mine.forget(s.key);
        lines.push(`limiter.forget(${quote(s.key)})`);
        continue;
      }
      if (s.op === 'numRequeues') {
        const want = num(ref.numRequeues(s.key));
        const got = num(mine.numRequeues(s.key));
        if (want !== got) return `${lines.join('\n')}\nlimiter.numRequeues(${quote(s.key)}): expected ${want}, got ${got}`;
        lines.push(`limiter.numRequeues(${quote(s.key)}) -> ${want}`);
        continue;
      }
      const wants: string[] = [];
      for (let i = 0; i < s.times; i++) {
        const want = num(ref.when(s.key, 0));
        const got = num(mine.when(s.key, 0));
        if (want !== got) {
          return `${lines.join('\n')}\n${i > 0 ? `limiter.when(${quote(s.key)}) x ${i} -> ${wants.join(', ')}\n` : ''}then limiter.when(${quote(s.key)}): expected ${want}, got ${got}`;
        }
        wants.push(want);
      }
      lines.push(`limiter.when(${quote(s.key)}) x ${s.times} -> ${wants.join(', ')}`);
    }
    return undefined;
  }

  it('random when/forget/numRequeues on the rate limiter, random base and maximum', () => {
    const details = fc.check(
      fc.property(limiterCase, (c) => {
        const problem = limiterReplay(c);
        if (problem !== undefined) throw new Error(problem);
      }),
      { seed: SEED, numRuns: 500 },
    );
    if (details.failed && details.counterexample) {
      const [c] = details.counterexample;
      expect.fail(
        `your rate limiter differs from client-go's ItemExponentialFailureRateLimiter (seed ${details.seed}, path ${details.counterexamplePath}).\n` +
          `Shortest failing run: limiter = createItemExponentialFailureRateLimiter(${c.base}, ${c.max})\n${limiterReplay(c) ?? String(details.errorInstance)}`,
      );
    }
    expect(details.numRuns).toBe(500);
  });
});
