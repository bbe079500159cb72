// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) parsed, validated and turned into
// plugin lists per extension point. mirrors pkg/scheduler/apis/config/v1/default_plugins.go
// (getDefaultPlugins, mergePlugins), pkg/scheduler/framework/runtime/framework.go
// (expandMultiPointPlugins: explicitly configured plugins first, then multiPoint ones, then the
// rest) and pkg/scheduler/apis/config/validation (messages in field-path form).
import type { ScorePlugin } from './framework/interface.ts';
import {
  isBind,
  isFilter,
  isPermit,
  isPostFilter,
  isPreFilter,
  isPreScore,
  isReserve,
  isScore,
  type AnyPlugin,
  type BindPlugin,
  type FilterPlugin,
  type PermitPlugin,
  type PostFilterPlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ReservePlugin,
} from './framework/cycle.ts';
import { IN_TREE_REGISTRY, UNMODELED, type PluginFactory } from './plugins/registry.ts';
import { DEFAULT_FIT_ARGS } from './plugins/noderesources/fit.ts';
import { validateFitArgs, validateNodeAffinityArgs } from './profile-args.ts';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const API_VERSION = 'kubescheduler.config.k8s.io/v1';

export interface PluginRef {
  name: string;
  weight?: number;
}
export interface PluginSet {
  enabled?: PluginRef[];
  disabled?: PluginRef[];
}
const EXTENSION_POINTS = [
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
] as const;
type ExtensionPoint = (typeof EXTENSION_POINTS)[number];
export type Plugins = Partial<Record<ExtensionPoint | 'multiPoint', PluginSet>>;

export interface ProfileConfig {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: Plugins;
  pluginConfig?: { name: string; args?: unknown }[];
}

export interface KubeSchedulerConfiguration {
  apiVersion?: string;
  kind?: string;
  percentageOfNodesToScore?: number;
  profiles?: ProfileConfig[];
}

export interface WeightedScorePlugin {
  plugin: ScorePlugin;
  weight: number;
}

/** A framework instance: the plugins of one profile, per extension point, in run order. */
export interface Profile {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  queueSort: string;
  preFilter: PreFilterPlugin[];
  filter: FilterPlugin[];
  postFilter: PostFilterPlugin[];
  preScore: PreScorePlugin[];
  score: WeightedScorePlugin[];
  reserve: ReservePlugin[];
  permit: PermitPlugin[];
  bind: BindPlugin[];
}

export interface SchedulerConfig {
  percentageOfNodesToScore?: number;
  profiles: Profile[];
}

export type ConfigResult = { ok: true; config: SchedulerConfig } | { ok: false; errors: string[] };

/** getDefaultPlugins for v1: everything enabled through multiPoint, with the default weights. */
export function defaultPlugins(): Plugins {
  return {
    multiPoint: {
      enabled: [
        { name: 'SchedulingGates' },
        { name: 'PrioritySort' },
        { name: 'NodeUnschedulable' },
        { name: 'NodeName' },
        { name: 'TaintToleration', weight: 3 },
        { name: 'NodeAffinity', weight: 2 },
        { name: 'NodePorts' },
        { name: 'NodeResourcesFit', weight: 1 },
        { name: 'VolumeRestrictions' },
        { name: 'NodeVolumeLimits' },
        { name: 'VolumeBinding' },
        { name: 'VolumeZone' },
        { name: 'PodTopologySpread', weight: 2 },
        { name: 'InterPodAffinity', weight: 2 },
        { name: 'DefaultPreemption' },
        { name: 'NodeResourcesBalancedAllocation', weight: 1 },
        { name: 'ImageLocality', weight: 1 },
        { name: 'DefaultBinder' },
      ],
    },
  };
}

/** mergePluginSet: defaults minus the disabled ones (or none with "*"), custom replacing in place. */
function mergePluginSet(defaults: PluginSet | undefined, custom: PluginSet | undefined): PluginSet {
  const disabled = new Set((custom?.disabled ?? []).map((p) => p.name));
  const customEnabled = new Map((custom?.enabled ?? []).map((p) => [p.name, p]));
  const replaced = new Set<string>();
  const enabled: PluginRef[] = [];
  if (!disabled.has('*')) {
    for (const p of defaults?.enabled ?? []) {
      if (disabled.has(p.name)) continue;
      const c = customEnabled.get(p.name);
      if (c) replaced.add(p.name);
      enabled.push(c ?? p);
    }
  }
  for (const p of custom?.enabled ?? []) if (!replaced.has(p.name)) enabled.push(p);
  return { enabled, disabled: custom?.disabled ?? [] };
}

function mergePlugins(defaults: Plugins, custom: Plugins | undefined): Plugins {
  const out: Plugins = {};
  for (const ep of ['multiPoint', ...EXTENSION_POINTS] as const)
    out[ep] = mergePluginSet(defaults[ep], custom?.[ep]);
  return out;
}

const IMPLEMENTS: Record<ExtensionPoint, (p: AnyPlugin) => boolean> = {
  queueSort: (p) => p.name === 'PrioritySort',
  preFilter: isPreFilter,
  filter: isFilter,
  postFilter: isPostFilter,
  preScore: isPreScore,
  score: isScore,
  reserve: isReserve,
  permit: isPermit,
  preBind: () => false,
  bind: isBind,
  postBind: () => false,
};

/** expandMultiPointPlugins for one extension point: names in run order, with score weights. */
function expand(
  plugins: Plugins,
  ep: ExtensionPoint,
  instances: Map<string, AnyPlugin>,
): PluginRef[] {
  const explicit = plugins[ep]?.enabled ?? [];
  const explicitNames = new Set(explicit.map((p) => p.name));
  const disabled = new Set((plugins[ep]?.disabled ?? []).map((p) => p.name));
  const multi = (plugins.multiPoint?.enabled ?? []).filter((p) => {
    const inst = instances.get(p.name);
    return (
      inst !== undefined && IMPLEMENTS[ep](inst) && !disabled.has('*') && !disabled.has(p.name)
    );
  });
  const multiNames = new Set(multi.map((p) => p.name));
  return [
    ...explicit.filter((p) => multiNames.has(p.name)),
    ...multi.filter((p) => !explicitNames.has(p.name)),
    ...explicit.filter((p) => !multiNames.has(p.name)),
  ];
}

export interface BuildOptions {
  /** Out-of-tree plugins (a learner's ScorePlugin, for instance), by name. */
  registry?: Readonly<Record<string, PluginFactory>>;
}

function buildProfile(
  cfg: ProfileConfig,
  path: string,
  errors: string[],
  opts: BuildOptions,
): Profile | null {
  const registry = { ...IN_TREE_REGISTRY, ...opts.registry };
  const plugins = mergePlugins(defaultPlugins(), cfg.plugins);
  const args = new Map<string, unknown>();
  (cfg.pluginConfig ?? []).forEach((pc, i) => {
    if (args.has(pc.name)) errors.push(`${path}.pluginConfig[${i}]: Duplicate value: "${pc.name}"`);
    args.set(pc.name, pc.args);
  });
  const fitArgs = args.get('NodeResourcesFit');
  if (fitArgs !== undefined) {
    const i = (cfg.pluginConfig ?? []).findIndex((p) => p.name === 'NodeResourcesFit');
    errors.push(...validateFitArgs(fitArgs, `${path}.pluginConfig[${i}].args`));
  }
  const affinityArgs = args.get('NodeAffinity');
  if (affinityArgs !== undefined) {
    const i = (cfg.pluginConfig ?? []).findIndex((p) => p.name === 'NodeAffinity');
    errors.push(...validateNodeAffinityArgs(affinityArgs, `${path}.pluginConfig[${i}].args`));
  }
  const instances = new Map<string, AnyPlugin>();
  const referenced = new Map<string, string>();
  for (const ep of ['multiPoint', ...EXTENSION_POINTS] as const) {
    (plugins[ep]?.enabled ?? []).forEach((p, i) =>
      referenced.set(p.name, `${path}.plugins.${ep}.enabled[${i}]`),
    );
  }
  for (const [name, where] of referenced) {
    if (UNMODELED.has(name)) {
      if (
        (cfg.plugins?.multiPoint?.enabled ?? []).some((p) => p.name === name) ||
        EXTENSION_POINTS.some((ep) =>
          (cfg.plugins?.[ep]?.enabled ?? []).some((p) => p.name === name),
        )
      ) {
        errors.push(`${where}: Unsupported value: "${name}": not modeled by this simulation`);
      }
      continue;
    }
    const factory = registry[name];
    if (!factory) {
      errors.push(`${where}: Invalid value: "${name}": plugin "${name}" does not exist`);
      continue;
    }
    const a = name === 'NodeResourcesFit' ? (fitArgs ?? DEFAULT_FIT_ARGS) : args.get(name);
    instances.set(name, factory(a));
  }
  if (errors.length > 0) return null;
  const pick = <T>(ep: ExtensionPoint) =>
    expand(plugins, ep, instances).map((p) => instances.get(p.name) as T);
  const score = expand(plugins, 'score', instances).map((p, i) => {
    const weight = p.weight ?? 0;
    if (weight < 0 || !Number.isInteger(weight)) {
      errors.push(
        `${path}.plugins.score.enabled[${i}].weight: Invalid value: ${weight}: must be a non-negative integer`,
      );
    }
    return { plugin: instances.get(p.name) as ScorePlugin, weight: weight === 0 ? 1 : weight };
  });
  const queueSort = expand(plugins, 'queueSort', instances);
  if (queueSort.length !== 1)
    errors.push(
      `${path}.plugins.queueSort: Invalid value: exactly one queue sort plugin must be enabled`,
    );
  if (expand(plugins, 'bind', instances).length === 0)
    errors.push(`${path}.plugins.bind: Required value: at least one bind plugin is needed`);
  if (errors.length > 0) return null;
  return {
    schedulerName: cfg.schedulerName ?? DEFAULT_SCHEDULER_NAME,
    ...(cfg.percentageOfNodesToScore === undefined
      ? {}
      : { percentageOfNodesToScore: cfg.percentageOfNodesToScore }),
    queueSort: queueSort[0]!.name,
    preFilter: pick('preFilter'),
    filter: pick('filter'),
    postFilter: pick('postFilter'),
    preScore: pick('preScore'),
    score,
    reserve: pick('reserve'),
    permit: pick('permit'),
    bind: pick('bind'),
  };
}

function validPercentage(v: unknown, path: string, errors: string[]): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) {
    errors.push(`${path}: Invalid value: ${JSON.stringify(v)}: not in valid range [0-100]`);
  }
}

/** Parses and validates a configuration; undefined gives the default profile. */
export function buildSchedulerConfig(
  config?: KubeSchedulerConfiguration,
  opts: BuildOptions = {},
): ConfigResult {
  const cfg = config ?? {};
  const errors: string[] = [];
  if (cfg.apiVersion !== undefined && cfg.apiVersion !== API_VERSION) {
    errors.push(
      `apiVersion: Unsupported value: "${cfg.apiVersion}": supported values: "${API_VERSION}"`,
    );
  }
  if (cfg.kind !== undefined && cfg.kind !== 'KubeSchedulerConfiguration') {
    errors.push(
      `kind: Unsupported value: "${cfg.kind}": supported values: "KubeSchedulerConfiguration"`,
    );
  }
  validPercentage(cfg.percentageOfNodesToScore, 'percentageOfNodesToScore', errors);
  const profileConfigs = cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{}];
  const names = new Set<string>();
  const profiles: Profile[] = [];
  profileConfigs.forEach((pc, i) => {
    const path = `profiles[${i}]`;
    const name = pc.schedulerName ?? DEFAULT_SCHEDULER_NAME;
    if (names.has(name)) errors.push(`${path}.schedulerName: Duplicate value: "${name}"`);
    names.add(name);
    validPercentage(pc.percentageOfNodesToScore, `${path}.percentageOfNodesToScore`, errors);
    const p = buildProfile(pc, path, errors, opts);
    if (p) profiles.push(p);
  });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      ...(cfg.percentageOfNodesToScore === undefined
        ? {}
        : { percentageOfNodesToScore: cfg.percentageOfNodesToScore }),
      profiles,
    },
  };
}

/** The default profile; throws only if the built-in defaults are broken (an invariant). */
export function defaultProfile(): Profile {
  const r = buildSchedulerConfig();
  if (!r.ok)
    throw new Error(
      `invariant violated: the default profile does not build: ${r.errors.join('; ')}`,
    );
  return r.config.profiles[0]!;
}
