// kubectl create service clusterip|nodeport|loadbalancer|externalname NAME.
// mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_service.go (ServiceOptions.Validate,
// createService): labels and selector app=NAME, one TCP port per --tcp "port[:targetPort]" named
// after it ("5678-8080"), --clusterip (None: headless), --node-port on each port, --external-name.
import { lookupResource, type Service } from '../../../api/index.ts';
import { flagInt, flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';
import { createObject } from './apply.ts';

const TYPES: Record<string, NonNullable<Service['spec']['type']>> = {
  clusterip: 'ClusterIP', nodeport: 'NodePort', loadbalancer: 'LoadBalancer', externalname: 'ExternalName',
};

export function runCreateService(ctx: Ctx, done: () => void): void {
  const [, sub, name] = ctx.args.positionals;
  const type = Object.hasOwn(TYPES, sub ?? '') ? TYPES[sub ?? ''] : undefined;
  if (!type) {
    ctx.error(sub === undefined ? 'You must specify a subcommand of "kubectl create service": clusterip, externalname, loadbalancer, nodeport' : `unknown command "${sub}" for "kubectl create service"`);
    return done();
  }
  if (name === undefined) {
    ctx.error('exactly one NAME is required, got 0');
    return done();
  }
  const built = serviceFor(name, type, flagStrings(ctx.args, 'tcp'), flagString(ctx.args, 'clusterip'), flagInt(ctx.args, 'node-port'), flagString(ctx.args, 'external-name'));
  if ('error' in built) {
    ctx.error(built.error);
    return done();
  }
  // Run: fmt.Errorf("failed to create %s service: %v", o.Type, err)
  createObject(ctx, built, lookupResource('services')!, 'created', done, undefined, `failed to create ${type} service: `);
}

/** Validate then createService. */
export function serviceFor(name: string, type: NonNullable<Service['spec']['type']>, tcp: string[], clusterIP?: string, nodePort?: number, externalName?: string): Service | { error: string } {
  if (type === 'ExternalName') {
    if (!externalName) return { error: 'external name must be specified' };
  } else if (tcp.length === 0 && clusterIP !== 'None') {
    return { error: 'at least one tcp port specifier must be provided' };
  }
  if (clusterIP === 'None' && type !== 'ClusterIP') return { error: 'ClusterIP=None can only be used with ClusterIP service type' };
  const ports: NonNullable<Service['spec']['ports']> = [];
  for (const spec of tcp) {
    const [port, target] = spec.split(':', 2) as [string, string | undefined];
    if (!/^\d+$/.test(port) || (target !== undefined && target === '')) return { error: `invalid port: ${spec}` };
    const targetPort: number | string = target === undefined ? Number(port) : /^\d+$/.test(target) ? Number(target) : target;
    ports.push({ name: spec.replace(/:/g, '-'), protocol: 'TCP', port: Number(port), targetPort, ...(nodePort !== undefined && nodePort > 0 ? { nodePort } : {}) });
  }
  const spec: Service['spec'] = { type, selector: { app: name }, ...(ports.length > 0 ? { ports } : {}) };
  if (clusterIP) spec.clusterIP = clusterIP;
  if (type === 'ExternalName') spec.externalName = externalName;
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { app: name } }, spec };
}
