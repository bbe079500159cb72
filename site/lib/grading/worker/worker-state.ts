// Vitest reads a global "worker state" (globalThis.__vitest_worker__) before anything else runs.
// This mirrors what vitest's browser mode installs (packages/browser/src/client/tester/state.ts)
// with the settings a lab needs: one file, no module runner, no coverage, no RPC to a server.
import type { SerializedConfig } from 'vitest';

/** A snapshot store that lives in memory: labs have no snapshot files to read or write. */
function memorySnapshotEnvironment() {
  const files = new Map<string, string>();
  return {
    getVersion: () => '1',
    getHeader: () => '// Vitest Snapshot v1',
    resolvePath: async (filepath: string) => `${filepath}.snap`,
    resolveRawPath: async (_testPath: string, rawPath: string) => rawPath,
    saveSnapshotFile: async (filepath: string, snapshot: string) => void files.set(filepath, snapshot),
    readSnapshotFile: async (filepath: string) => files.get(filepath) ?? null,
    removeSnapshotFile: async (filepath: string) => void files.delete(filepath),
  };
}

/** The subset of vitest's SerializedConfig that its runner reads, with CLI defaults. */
export function createLabConfig(testTimeoutMs: number): SerializedConfig {
  const config = {
    name: 'lab',
    mode: 'test',
    root: '/',
    base: '/',
    globals: false,
    allowOnly: false,
    passWithNoTests: false,
    testTimeout: testTimeoutMs,
    hookTimeout: Math.max(testTimeoutMs, 10_000),
    teardownTimeout: 10_000,
    maxConcurrency: 5,
    retry: 0,
    repeats: 0,
    bail: 0,
    includeTaskLocation: false,
    taskTitleValueFormatTruncate: 40,
    tags: [],
    tagsFilter: undefined,
    strictTags: false,
    testNamePattern: undefined,
    setupFiles: [],
    snapshotSerializers: [],
    defines: {},
    env: {},
    diff: undefined,
    clearMocks: false,
    mockReset: false,
    restoreMocks: false,
    unstubEnvs: false,
    unstubGlobals: false,
    isolate: true,
    logHeapUsage: false,
    printConsoleTrace: false,
    chaiConfig: { truncateThreshold: 40 },
    expect: { requireAssertions: false, poll: { interval: 50, timeout: 1000 } },
    sequence: { shuffle: false, concurrent: false, seed: 0, hooks: 'stack', setupFiles: 'list' },
    fakeTimers: { loopLimit: 10_000, shouldClearNativeTimers: true },
    snapshotOptions: {
      updateSnapshot: 'none',
      expand: false,
      snapshotFormat: {},
      snapshotEnvironment: memorySnapshotEnvironment(),
    },
    deps: { moduleDirectories: ['node_modules'], interopDefault: true },
    experimental: { viteModuleRunner: false, traceTimeline: false, importDurations: { limit: 0 } },
    coverage: { enabled: false },
    browser: { isolate: true },
  };
  return config as unknown as SerializedConfig;
}

/** RPC calls the runner makes to a vitest server; in the worker they are answered locally. */
const localRpc = {
  snapshotSaved: async () => undefined,
  onTestModuleDependencies: async () => undefined,
  onAsyncLeaks: async () => undefined,
  resolveSnapshotPath: (path: string) => `${path}.snap`,
};

export function installWorkerState(config: SerializedConfig): void {
  const state = {
    ctx: {
      pool: 'browser',
      workerId: 1,
      config,
      projectName: 'lab',
      files: [],
      environment: { name: 'browser', options: null },
      providedContext: {},
      invalidates: [],
    },
    onCancel: new Promise(() => undefined),
    config,
    environment: {
      name: 'browser',
      viteEnvironment: 'client',
      setup() {
        throw new Error('invariant: environments are not set up in the lab worker');
      },
    },
    onCleanup: () => undefined,
    evaluatedModules: new Map(),
    resolvingModules: new Set(),
    moduleExecutionInfo: new Map(),
    metaEnv: {},
    rpc: localRpc,
    durations: { environment: 0, prepare: 0 },
    providedContext: {},
    filepath: undefined as string | undefined,
  };
  Object.defineProperty(globalThis, '__vitest_browser__', { value: true, configurable: true, writable: true });
  Object.defineProperty(globalThis, '__vitest_worker__', { value: state, configurable: true, writable: true });
}

export function setCurrentFile(filepath: string): void {
  (globalThis as unknown as { __vitest_worker__: { filepath?: string } }).__vitest_worker__.filepath = filepath;
}
