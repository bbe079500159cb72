// The Deployment the cluster benchmarks apply: one container asking for 10m CPU and 16Mi, so
// a node of the default size takes its full 110 pods.
export const benchDeployment = (name: string, replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name} }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
      - { name: app, image: 'nginx:1.27', resources: { requests: { cpu: 10m, memory: 16Mi } } }
`;
