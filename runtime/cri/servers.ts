// What a running container answers on a TCP port when a client sends it an HTTP GET /: the web
// servers of the simulated images. nginx and httpd serve their default pages on port 80; agnhost's
// serve-hostname (the Kubernetes e2e tests' way to see which pod answered a Service) serves the
// pod's hostname on 9376. Other images listen on nothing the simulation can answer.

/** An HTTP server in a container: its port and the body of GET / (given the pod's hostname). */
export interface HttpServer {
  port: number;
  body(hostname: string): string;
}

/** nginx's default index.html (/usr/share/nginx/html/index.html in the official image). */
const NGINX_WELCOME = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** httpd's htdocs/index.html. */
const HTTPD_IT_WORKS = '<html><body><h1>It works!</h1></body></html>\n';

/** agnhost's serve-hostname default port (test/images/agnhost/serve-hostname). */
export const SERVE_HOSTNAME_PORT = 9376;

/** The server a container of this image runs with this command and arguments, if any. */
export function httpServerOf(imageRef: string, argv: readonly string[]): HttpServer | undefined {
  const repo = imageRef.replace(/[:@][^/]*$/, '');
  switch (repo) {
    case 'docker.io/library/nginx':
      return { port: 80, body: () => NGINX_WELCOME };
    case 'docker.io/library/httpd':
      return { port: 80, body: () => HTTPD_IT_WORKS };
    case 'registry.k8s.io/e2e-test-images/agnhost': {
      if (!argv.includes('serve-hostname')) return undefined;
      const flag = argv.find((a) => a.startsWith('--port='));
      const port = flag ? Number(flag.slice('--port='.length)) : SERVE_HOSTNAME_PORT;
      return Number.isInteger(port) ? { port, body: (hostname) => hostname } : undefined;
    }
    default:
      return undefined;
  }
}
