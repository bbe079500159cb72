// Which references the simulated registry has: official images only publish some tags, so a typo
// like the Deployment docs' "nginx:1.161" is not found (and the kubelet reports ErrImagePull).
import { describe, expect, it } from 'vitest';
import { resolveImage } from './images.ts';

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
