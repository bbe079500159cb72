// Commands that build an object from flags: kubectl run (a Pod) and kubectl expose (a Service for
// a pod, service, deployment, replicaset or replication controller).
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/run/run.go (generateversioned BasicPod: label
// run=<name>, one container named after the pod, args after "--" or --command) and
// staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go (createService: the object's selector, its
// labels, ports from --port or from the pod template, "port-N" names when several, targetPort = port).
import type { Container, Deployment, KubeObject, Pod, Protocol, Service, ServicePort, ServiceType } from '../../../api/index.ts';
import { lookupResource } from '../../../api/index.ts';
import { flagBool, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { gvr } from '../context.ts';
import { createObject } from './apply.ts';
import { attachRefusal, attachToRun, attaches } from './run-attach.ts';
import { fetchTargets } from './targets.ts';

// ---------------------------------------------------------------- run

/** "k=v,k2=v2" as a map, or the first malformed entry. */
function parseLabelList(text: string): Record<string, string> | { invalid: string } {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { invalid: part };
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/** The Pod `kubectl run NAME --image=IMAGE [-- args]` sends, or the error kubectl prints. */
export function podForRun(ctx: Ctx): { ok: true; pod: Pod } | { ok: false; error: string } {
  const [name, ...rest] = ctx.args.positionals;
  if (name === undefined) return { ok: false, error: 'NAME is required for run' };
  const image = flagString(ctx.args, 'image');
  if (!image) return { ok: false, error: 'required flag(s) "image" not set' };
  const dash = ctx.args.argsLenAtDash ?? -1;
  if (rest.length > 0 && dash !== 1)
    return { ok: false, error: `Unexpected args: [${rest.join(' ')}]\nSee 'kubectl run -h' for help and examples` };
  let labels: Record<string, string> = { run: name };
  const labelText = flagString(ctx.args, 'labels');
  if (labelText) {
    const parsed = parseLabelList(labelText);
    if ('invalid' in parsed) return { ok: false, error: `invalid label spec: ${parsed.invalid}` };
    labels = parsed;
  }
  // run.go getRestartPolicy: OnFailure when attaching stdin (-i), else Always
  const restart = flagString(ctx.args, 'restart') ?? (flagBool(ctx.args, 'stdin') ? 'OnFailure' : 'Always');
  if (!['Always', 'OnFailure', 'Never'].includes(restart))
    return { ok: false, error: `invalid restart policy: ${restart}` };
  const container: Container = { name, image, resources: {} };
  const pullPolicy = flagString(ctx.args, 'image-pull-policy');
  if (pullPolicy) container.imagePullPolicy = pullPolicy as Container['imagePullPolicy'];
  const port = flagString(ctx.args, 'port');
  if (port) {
    const n = Number(port);
    if (!Number.isInteger(n)) return { ok: false, error: `strconv.Atoi: parsing "${port}": invalid syntax` };
    container.ports = [{ containerPort: n }];
  }
  const env = flagStrings(ctx.args, 'env');
  if (env.length > 0) {
    container.env = [];
    for (const e of env) {
      const eq = e.indexOf('=');
      if (eq <= 0) return { ok: false, error: `invalid env: ${e}` };
      container.env.push({ name: e.slice(0, eq), value: e.slice(eq + 1) });
    }
  }
  if (rest.length > 0) {
    if (flagBool(ctx.args, 'command')) container.command = rest;
    else container.args = rest;
  }
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: restart },
    status: {},
  } as Pod;
  return { ok: true, pod };
}

export function runRun(ctx: Ctx, done: () => void): void {
  const built = podForRun(ctx);
  if (!built.ok) {
    ctx.error(built.error);
    return done();
  }
  const refusal = attachRefusal(ctx);
  if (refusal !== undefined) {
    ctx.error(refusal);
    return done();
  }
  const info = lookupResource('pods')!;
  if (attaches(ctx)) {
    // run.go prints no "created" line when it attaches: what follows is the container's output
    ctx.request({ verb: 'create', resource: gvr(info), namespace: ctx.namespace, body: built.pod }, (res) => {
      if (!res.ok) {
        ctx.statusError(res.status);
        return done();
      }
      attachToRun(ctx, res.body as Pod, done);
    });
    return;
  }
  if (!flagBool(ctx.args, 'expose')) return createObject(ctx, built.pod, info, 'created', done);
  // --expose: the Service first (run.go generateService), then the Pod
  const port = built.pod.spec.containers[0]!.ports?.[0]?.containerPort;
  if (port === undefined) {
    ctx.error('--port must be set when exposing a service');
    return done();
  }
  const service = serviceFor(built.pod.metadata.name!, built.pod.metadata.labels ?? {}, {}, [{ port, protocol: 'TCP', targetPort: port }]);
  createObject(ctx, service, lookupResource('services')!, 'created', () =>
    ctx.failed ? done() : createObject(ctx, built.pod, info, 'created', done),
  );
}

// ---------------------------------------------------------------- expose

function serviceFor(name: string, selector: Record<string, string>, labels: Record<string, string>, ports: ServicePort[]): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, ...(Object.keys(labels).length > 0 ? { labels } : {}) },
    spec: { ports, selector },
    status: { loadBalancer: {} },
  } as Service;
}

/** MapBasedSelectorForObject: which pods the new Service selects, or why it cannot. */
function selectorOf(o: KubeObject): Record<string, string> | { error: string } {
  switch (o.kind) {
    case 'Pod':
      if (!o.metadata.labels || Object.keys(o.metadata.labels).length === 0)
        return { error: `the pod has no labels and cannot be exposed` };
      return { ...o.metadata.labels };
    case 'Service': {
      const s = (o as Service).spec.selector;
      if (!s) return { error: `the service has no pod selector set` };
      return { ...s };
    }
    case 'Deployment':
    case 'ReplicaSet': {
      const sel = (o as Deployment).spec.selector;
      if ((sel.matchExpressions ?? []).length > 0)
        return { error: `couldn't convert expressions - "${JSON.stringify(sel.matchExpressions)}" to map-based selector format` };
      return { ...(sel.matchLabels ?? {}) };
    }
    case 'ReplicationController':
      return { ...((o as unknown as { spec: { selector?: Record<string, string> } }).spec.selector ?? {}) };
    default:
      return { error: `cannot expose a ${o.kind ?? 'object'}` };
  }
}

/** PortsForObject + ProtocolsForObject: the container ports of the object's pods (or the service's ports). */
function introspectedPorts(o: KubeObject): { port: number; protocol: Protocol }[] {
  if (o.kind === 'Service') return ((o as Service).spec.ports ?? []).map((p) => ({ port: p.port, protocol: p.protocol ?? 'TCP' }));
  const containers =
    o.kind === 'Pod' ? (o as Pod).spec.containers : ((o as Deployment).spec.template?.spec?.containers ?? []);
  return containers.flatMap((c) => (c.ports ?? []).map((p) => ({ port: p.containerPort, protocol: p.protocol ?? 'TCP' })));
}

/** expose.go createService for one fetched object. */
export function serviceForExpose(ctx: Ctx, o: KubeObject): { ok: true; service: Service } | { ok: false; error: string } {
  const selector = selectorOf(o);
  if ('error' in selector) return { ok: false, error: selector.error };
  const portFlag = flagString(ctx.args, 'port');
  const protocolFlag = flagString(ctx.args, 'protocol') as Protocol | undefined;
  let ports: { port: number; protocol: Protocol }[];
  if (portFlag) {
    ports = [];
    for (const p of portFlag.split(',')) {
      const n = Number(p);
      if (!Number.isInteger(n)) return { ok: false, error: `strconv.Atoi: parsing "${p}": invalid syntax` };
      ports.push({ port: n, protocol: protocolFlag ?? 'TCP' });
    }
  } else {
    ports = introspectedPorts(o).map((p) => (protocolFlag ? { ...p, protocol: protocolFlag } : p));
    if (ports.length === 0) return { ok: false, error: "couldn't find port via --port flag or introspection" };
  }
  const target = flagString(ctx.args, 'target-port');
  const servicePorts: ServicePort[] = ports.map((p, i) => ({
    ...(ports.length > 1 ? { name: `port-${i + 1}` } : {}),
    port: p.port,
    protocol: p.protocol,
    targetPort: target === undefined ? p.port : /^\d+$/.test(target) ? Number(target) : target,
  }));
  let labels = { ...(o.metadata.labels ?? {}) };
  const labelText = flagString(ctx.args, 'labels');
  if (labelText) {
    const parsed = parseLabelList(labelText);
    if ('invalid' in parsed) return { ok: false, error: `invalid label spec: ${parsed.invalid}` };
    labels = parsed;
  }
  const service = serviceFor(flagString(ctx.args, 'name') || (o.metadata.name ?? ''), selector, labels, servicePorts);
  const type = flagString(ctx.args, 'type');
  if (type) service.spec.type = type as ServiceType;
  const clusterIP = flagString(ctx.args, 'cluster-ip');
  if (clusterIP) service.spec.clusterIP = clusterIP;
  const externalIP = flagString(ctx.args, 'external-ip');
  if (externalIP) service.spec.externalIPs = [externalIP];
  const affinity = flagString(ctx.args, 'session-affinity');
  if (affinity) service.spec.sessionAffinity = affinity as 'ClientIP' | 'None';
  return { ok: true, service };
}

export function runExpose(ctx: Ctx, done: () => void): void {
  fetchTargets(ctx, { missingTypeError: 'You must provide one or more resources by argument or filename.' }, (groups) => {
    if (!groups) return done();
    const objects = groups.flatMap((g) => g.objects.map((o) => ({ ...o, kind: o.kind ?? g.info.kind })));
    const first = objects[0];
    if (!first) return done();
    const built = serviceForExpose(ctx, first);
    if (!built.ok) {
      ctx.error(built.error);
      return done();
    }
    if (first.metadata.namespace) built.service.metadata.namespace = first.metadata.namespace;
    createObject(ctx, built.service, lookupResource('services')!, 'exposed', done);
  });
}
