// Status shapes and messages as real API servers return them (kubectl prints `Error from server
// (<reason>): <message>`). Texts checked against pkg/api/errors/errors_test.go and live clusters.
import { describe, expect, it } from 'vitest';
import { Path } from './field/path.ts';
import { invalid, required } from './field/errors.ts';
import {
  forbiddenMessage,
  isNotFound,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newInternalError,
  newInvalid,
  newMethodNotSupported,
  newNotFound,
  newResourceExpired,
  newServerTimeout,
  newTimeout,
  newTooManyRequests,
  tooOldResourceVersion,
} from './status.ts';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };

describe('Status builders', () => {
  it('NotFound', () => {
    expect(newNotFound(pods, 'x')).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' },
      code: 404,
    });
    expect(newNotFound(deployments, 'web').message).toBe('deployments.apps "web" not found');
    expect(newNotFound(deployments, 'web').details).toEqual({
      name: 'web',
      group: 'apps',
      kind: 'deployments',
    });
    expect(isNotFound(newNotFound(pods, 'x'))).toBe(true);
  });
  it('AlreadyExists and Conflict', () => {
    expect(newAlreadyExists(pods, 'x').message).toBe('pods "x" already exists');
    expect(newAlreadyExists(pods, 'x').code).toBe(409);
    const c = newConflict(deployments, 'web');
    expect(c.message).toBe(
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect([c.code, c.reason]).toEqual([409, 'Conflict']);
  });
  it('Invalid with causes', () => {
    const errs = [
      required(Path.of('spec', 'containers').at(0).child('image')),
      invalid(Path.of('metadata', 'name'), 'Foo', 'bad name'),
    ];
    const s = newInvalid({ group: '', kind: 'Pod' }, 'Foo', errs);
    expect(s.message).toBe(
      'Pod "Foo" is invalid: [spec.containers[0].image: Required value, metadata.name: Invalid value: "Foo": bad name]',
    );
    expect(s.code).toBe(422);
    expect(s.details).toEqual({
      name: 'Foo',
      kind: 'Pod',
      causes: [
        {
          reason: 'FieldValueRequired',
          message: 'Required value',
          field: 'spec.containers[0].image',
        },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "Foo": bad name',
          field: 'metadata.name',
        },
      ],
    });
    expect(newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', [errs[0]!]).message).toBe(
      'Deployment.apps "web" is invalid: spec.containers[0].image: Required value',
    );
  });
  it('Forbidden with the authorizer message', () => {
    const msg = forbiddenMessage({
      user: 'bob',
      verb: 'delete',
      resource: 'pods',
      group: '',
      namespace: 'kube-system',
    });
    expect(newForbidden(pods, 'x', msg).message).toBe(
      'pods "x" is forbidden: User "bob" cannot delete resource "pods" in API group "" in the namespace "kube-system"',
    );
    expect(
      newForbidden(
        { group: '', resource: 'nodes' },
        '',
        forbiddenMessage({ user: 'bob', verb: 'list', resource: 'nodes', group: '' }),
      ).message,
    ).toBe(
      'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect(forbiddenMessage({ user: 'bob', verb: 'get', path: '/metrics' })).toBe(
      'User "bob" cannot get path "/metrics"',
    );
    expect(newForbidden(pods, 'x', 'no').code).toBe(403);
  });
  it('the rest', () => {
    expect(newBadRequest('bad')).toMatchObject({ code: 400, reason: 'BadRequest', message: 'bad' });
    expect(newResourceExpired(tooOldResourceVersion(5, 10))).toMatchObject({
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 5 (10)',
    });
    expect(
      newTimeout(
        'request did not complete within requested timeout - context deadline exceeded',
        0,
      ),
    ).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message:
        'Timeout: request did not complete within requested timeout - context deadline exceeded',
    });
    expect(newTooManyRequests('too many requests, please try again later.', 1)).toMatchObject({
      code: 429,
      details: { retryAfterSeconds: 1 },
    });
    expect(newMethodNotSupported(pods, 'patch').message).toBe(
      'patch is not supported on resources of kind "pods"',
    );
    expect(newInternalError('boom')).toMatchObject({
      code: 500,
      message: 'Internal error occurred: boom',
      details: { causes: [{ message: 'boom' }] },
    });
    expect(newServerTimeout(pods, 'get', 2).message).toBe(
      'The get operation against pods could not be completed at this time, please try again.',
    );
  });
});
