import { describe, expect, it } from 'vitest';
import type { Status } from '../../api/index.ts';
import { deletedLine, formatStatusError, noResourcesFound, operationLine } from './errors.ts';

const status = (
  reason: Status['reason'],
  message: string,
  code: number,
  details?: Status['details'],
): Status => ({
  apiVersion: 'v1',
  kind: 'Status',
  metadata: {},
  status: 'Failure',
  reason,
  message,
  code,
  details,
});

describe('formatStatusError', () => {
  it.each([
    [
      status('NotFound', 'pods "x" not found', 404),
      'Error from server (NotFound): pods "x" not found\n',
    ],
    [
      status(
        'Forbidden',
        'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
        403,
      ),
      'Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"\n',
    ],
    [
      status('AlreadyExists', 'pods "x" already exists', 409),
      'Error from server (AlreadyExists): pods "x" already exists\n',
    ],
    [
      status(
        'Conflict',
        'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
        409,
      ),
      'Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again\n',
    ],
    [status('', 'boom', 500), 'Error from server: boom\n'],
    [
      status('Unauthorized', 'Unauthorized', 401),
      'error: You must be logged in to the server (Unauthorized)\n',
    ],
    [
      status('Invalid', 'Pod "x" is invalid: spec.containers[0].image: Required value', 422, {
        kind: 'Pod',
        name: 'x',
        causes: [
          {
            reason: 'FieldValueRequired',
            message: 'Required value',
            field: 'spec.containers[0].image',
          },
        ],
      }),
      'The Pod "x" is invalid: spec.containers[0].image: Required value\n',
    ],
    [
      status('Invalid', '...', 422, {
        kind: 'Deployment',
        name: 'web',
        causes: [
          { message: 'Required value', field: 'spec.selector' },
          {
            message: 'Invalid value: 0: must be greater than 0',
            field: 'spec.template.spec.containers[0].ports[0].containerPort',
          },
        ],
      }),
      'The Deployment "web" is invalid: \n* spec.selector: Required value\n* spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 0: must be greater than 0\n',
    ],
  ])('%#', (s, want) => expect(formatStatusError(s)).toBe(want));

  // no HTTP answer (the REST client's code-0 Status for a *url.Error): StandardErrorMessage
  it.each([
    ['Get "https://192.168.49.10:6443/api/v1/namespaces/default/pods": EOF', 'Unable to connect to the server: EOF\n'],
    [
      'Post "https://192.168.49.10:6443/apis/apps/v1/namespaces/default/deployments": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
      'Unable to connect to the server: context deadline exceeded (Client.Timeout exceeded while awaiting headers)\n',
    ],
    [
      'Get "https://192.168.49.2:8443/api/v1/pods?watch=true": dial tcp 192.168.49.2:8443: connect: connection refused',
      'The connection to the server 192.168.49.2:8443 was refused - did you specify the right host or port?\n',
    ],
    [
      'The connection to the server 192.168.49.2:8443 was refused - did you specify the right host or port?',
      'The connection to the server 192.168.49.2:8443 was refused - did you specify the right host or port?\n',
    ],
    // AddSourceToErr wraps a non-Status error with fmt.Errorf
    ['error when creating "STDIN": Post "https://192.168.49.10:6443/api/v1/namespaces/default/pods": EOF', 'error: error when creating "STDIN": Post "https://192.168.49.10:6443/api/v1/namespaces/default/pods": EOF\n'],
  ])('%s', (message, want) => expect(formatStatusError(status('', message, 0))).toBe(want));
});

describe('success lines', () => {
  it('prints kind.group/name and the operation', () => {
    expect(operationLine('deployment.apps', 'web', 'created')).toBe(
      'deployment.apps/web created\n',
    );
    expect(operationLine('pod', 'x', 'configured', true)).toBe('pod/x configured (dry run)\n');
    expect(operationLine('node', 'n1', 'cordoned')).toBe('node/n1 cordoned\n');
    expect(deletedLine('pod', 'x')).toBe('pod "x" deleted\n');
  });
  it('says where nothing was found', () => {
    expect(noResourcesFound('default')).toBe('No resources found in default namespace.\n');
    expect(noResourcesFound(undefined)).toBe('No resources found\n');
  });
});
