/**
 * runtime/cri: a simulated container runtime per node (CRI RuntimeService and ImageService shapes)
 * and the simulated image registry, including scripted teaching images under ghcr.io/inside-cp/
 * (crash-after:<N>s, exit-1, complete:<N>s, never-ready, unhealthy-after:<N>s, oom,
 * ignore-sigterm). See images.ts for what each does.
 */
export {
  ContainerRuntime,
  OOM_EXIT_CODE,
  type ContainerConfig,
  type ContainerInfo,
  type ContainerRuntimeOptions,
  type ContainerStateName,
  type LogEntry,
  type CriHost,
  type ProbeResult,
  type PullResult,
  type RuntimeCondition,
} from './runtime.ts';
export {
  SCRIPTED_REGISTRY,
  behaviourFor,
  fakeDigest,
  normalizeImageRef,
  resolveImage,
  type ImageBehaviour,
  type ImageSpec,
} from './images.ts';
export { httpServerOf, SERVE_HOSTNAME_PORT, type HttpServer } from './servers.ts';
export {
  execInUserland,
  hostProgramCall,
  extraProgramsOf,
  userlandOf,
  type HttpGetResult,
  type PodNetworkAccess,
  type ExecEnvironment,
  type ExecOutput,
  type ExecResult,
  type ExecStartFailure,
  type Userland,
} from './userland.ts';
