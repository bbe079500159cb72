// runtime/cli: the command-line tools a learner types into the book's terminal.
// kubectl talks to the API server through its KubeTransport; etcdctl talks to etcd.
export * from './kubectl/index.ts';
export * from './etcdctl/index.ts';
