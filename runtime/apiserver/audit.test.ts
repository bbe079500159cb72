import { describe, expect, it } from 'vitest';
import type { AdmissionStep } from './admission/chain.ts';
import { AuditLog, AuditRecord, type AuditEvent } from './audit.ts';

const record = (id: number, startMs = 100): AuditRecord =>
  new AuditRecord(id, 'update', '/api/v1/nodes/n1/status', startMs, 'nodes', '', undefined, 'n1', 'status');

const allowed = (plugin: string): AdmissionStep => ({ plugin, phase: 'mutating', allowed: true });

describe('AuditRecord builds the event it recorded', () => {
  it('every field and stage, in recording order, with times carried from the stage before', () => {
    const r = record(7);
    r.authenticated(100, 'x509', { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] });
    r.decision = 'allow';
    r.reason = 'RBAC: allowed';
    r.stage('Authorization', 100, 'RBAC: allowed', true);
    r.admission('mutating', 101, [allowed('LimitRanger'), allowed('Priority')]);
    r.admission('validating', 101, []);
    r.stage('Validation', 101, 'valid', true);
    r.admission('validating', 101, [{ plugin: 'ResourceQuota', phase: 'validating', allowed: false, message: 'exceeded quota' }, { plugin: 'X', phase: 'validating', allowed: false }]);
    r.code = 403;
    r.message = 'exceeded quota';
    r.stage('ResponseComplete', 130, '403', false);
    const expected: AuditEvent = {
      auditID: 'kube-apiserver-1-7',
      server: 'kube-apiserver-1',
      requestURI: '/api/v1/nodes/n1/status',
      verb: 'update',
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': 'RBAC: allowed' },
      requestReceivedMs: 100,
      stages: [
        { stage: 'RequestReceived', atMs: 100, detail: '/api/v1/nodes/n1/status', ok: true },
        { stage: 'Authentication', atMs: 100, detail: 'x509: system:node:n1 [system:nodes, system:authenticated]', ok: true },
        { stage: 'Authorization', atMs: 100, detail: 'RBAC: allowed', ok: true },
        { stage: 'MutatingAdmission', atMs: 101, detail: 'LimitRanger', ok: true },
        { stage: 'MutatingAdmission', atMs: 101, detail: 'Priority', ok: true },
        { stage: 'Validation', atMs: 101, detail: 'valid', ok: true },
        { stage: 'ValidatingAdmission', atMs: 101, detail: 'ResourceQuota: exceeded quota', ok: false },
        { stage: 'ValidatingAdmission', atMs: 101, detail: 'X: denied', ok: false },
        { stage: 'ResponseComplete', atMs: 130, detail: '403', ok: false },
      ],
      objectRef: { resource: 'nodes', apiGroup: '', name: 'n1', subresource: 'status' },
      user: { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] },
      responseStatus: { code: 403, message: 'exceeded quota' },
    };
    const event = r.toEvent('kube-apiserver-1');
    expect(event).toEqual(expected);
    // the same keys in the same order as the events built field by field before
    expect(JSON.stringify(event)).toBe(JSON.stringify(expected));
  });

  it('a non-resource request without authorization or answer has no objectRef, annotations or status', () => {
    const r = new AuditRecord(1, 'get', '/readyz', 5, undefined, '', undefined, undefined, undefined);
    r.stage('Authentication', 5, 'invalid credentials', false);
    expect(r.toEvent('s')).toEqual({
      auditID: 's-1', server: 's', requestURI: '/readyz', verb: 'get', annotations: {}, requestReceivedMs: 5,
      stages: [
        { stage: 'RequestReceived', atMs: 5, detail: '/readyz', ok: true },
        { stage: 'Authentication', atMs: 5, detail: 'invalid credentials', ok: false },
      ],
    });
  });
});

describe('AuditLog keeps the newest events in arrival order', () => {
  it.each([
    { capacity: 3, appended: 0, kept: [] },
    { capacity: 3, appended: 2, kept: [1, 2] },
    { capacity: 3, appended: 3, kept: [1, 2, 3] },
    { capacity: 3, appended: 4, kept: [2, 3, 4] },
    { capacity: 3, appended: 10, kept: [8, 9, 10] },
    { capacity: 1, appended: 5, kept: [5] },
    { capacity: 0, appended: 5, kept: [] },
  ])('capacity $capacity, $appended appended', ({ capacity, appended, kept }) => {
    const log = new AuditLog(capacity, 'srv');
    const heard: string[] = [];
    log.subscribe((e) => heard.push(e.auditID));
    for (let i = 1; i <= appended; i++) log.append(record(i));
    expect(log.list().map((e) => e.auditID)).toEqual(kept.map((i) => `srv-${i}`));
    expect(heard).toHaveLength(appended);
  });

  it('keeps AuditEvents appended as they are, beside records', () => {
    const log = new AuditLog(2, 'srv');
    const plain = record(1).toEvent('other');
    log.append(plain);
    log.append(record(2));
    expect(log.list()[0]).toBe(plain);
    expect(log.list()[1]!.auditID).toBe('srv-2');
  });

  it('a record still being written shows its later stages when read', () => {
    const log = new AuditLog(2, 'srv');
    const r = record(1);
    log.append(r);
    r.stage('Storage', 120, 'late', true);
    expect(log.list()[0]!.stages.at(-1)).toEqual({ stage: 'Storage', atMs: 120, detail: 'late', ok: true });
  });
});
