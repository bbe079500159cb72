// What kubectl makes of an error answer that is not a Status (client-go's
// newUnstructuredResponseError -> errors.NewGenericServerResponse).
import { describe, expect, it } from 'vitest';
import { genericServerResponse } from './kubectl-transport.ts';

describe('genericServerResponse', () => {
  it.each([
    [500, '[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed', 'InternalError', 'an error on the server ("[+]ping ok\\n[-]etcd failed: reason withheld\\nreadyz check failed") has prevented the request from succeeding'],
    [502, 'bad "gateway"', 'InternalError', 'an error on the server ("bad \\"gateway\\"") has prevented the request from succeeding'],
    [503, 'whatever', 'ServiceUnavailable', 'the server is currently unable to handle the request'],
    [404, '404 page not found', 'NotFound', 'the server could not find the requested resource'],
    [403, 'denied by policy', 'Forbidden', 'denied by policy'],
    [418, 'teapot', 'Unknown', 'the server responded with the status code 418 but did not return more information'],
  ])('%i', (code, text, reason, message) => {
    expect(genericServerResponse(code, text)).toMatchObject({ code, reason, message });
  });
});
