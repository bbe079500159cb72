// Which references the simulated registry has: official images only publish some tags, so a typo
// like the Deployment docs' "nginx:1.161" is not found (and the kubelet reports ErrImagePull).
import { describe, expect, it } from 'vitest';
import { behaviourFor, resolveImage } from './images.ts';

describe('resolveImage', () => {
  it.each([
    'nginx', 'nginx:latest', 'nginx:1.27', 'nginx:1.14.2', 'nginx:1.16.1', 'nginx:1', 'nginx:1.27-alpine', 'nginx:alpine', 'nginx:stable-alpine',
    'busybox:1.36', 'busybox:musl', 'redis:7', 'redis:7.2.4-alpine', 'httpd:2.4', 'postgres:16', 'postgres:16-alpine',
    'docker.io/library/nginx:1.28', 'nginx@sha256:0000000000000000000000000000000000000000000000000000000000000000',
    'registry.k8s.io/kube-proxy:v1.33.0', 'registry.k8s.io/pause:3.10', 'ghcr.io/inside-cp/crash-after:10s',
  ])('%s exists', (image) => {
    expect(resolveImage(image)).toBeDefined();
  });

  it.each([
    'nginx:1.161', 'nginx:sometag', 'nginx:2.0', 'nginx:1.27-slim', 'nginx:1.27.99', 'busybox:2', 'redis:99', 'httpd:3', 'postgres:100',
    'example.com/app:v1', 'ghcr.io/inside-cp/crash-after:soon',
  ])('%s is not found', (image) => {
    expect(resolveImage(image)).toBeUndefined();
  });
});

describe('behaviourFor busybox', () => {
  const busybox = resolveImage('busybox:1.36')!;
  it.each([
    [[], { kind: 'exit', afterMs: 100, exitCode: 0 }],
    [['sleep', '3600'], { kind: 'exit', afterMs: 3_600_000, exitCode: 0, ignoresSigterm: true }],
    [['sleep', 'infinity'], { kind: 'serve', ignoresSigterm: true }],
    [['sh', '-c', 'while true; do echo hi; sleep 5; done'], { kind: 'loop', body: 'echo hi; sleep 5', ignoresSigterm: true }],
    [['sh', '-c', 'while true; do echo hi; sleep 5; done & wait'], { kind: 'serve', ignoresSigterm: true }],
    [['wget', '-qO-', 'web'], { kind: 'program', argv: ['wget', '-qO-', 'web'], ignoresSigterm: true }],
  ] as [string[], unknown][])('%j', (command, behaviour) => {
    expect(behaviourFor(busybox, command)).toEqual(behaviour);
  });
  it('leaves other images to their own behaviour', () => {
    expect(behaviourFor(resolveImage('nginx:1.27')!, ['nginx', '-g', 'daemon off;'])).toEqual({ kind: 'serve' });
  });
});
