import { describe, expect, it } from 'vitest';
import { alignTabs, DESCRIBE_TABWRITER, GET_TABWRITER } from './tabwriter.ts';

describe('alignTabs', () => {
  it('pads columns by 3 with a minimum width of 6, leaving the last cell unpadded', () => {
    const text = 'NAME\tREADY\tSTATUS\tRESTARTS\tAGE\nnginx\t1/1\tRunning\t0\t5s\n';
    expect(alignTabs(text, GET_TABWRITER)).toBe(
      'NAME    READY   STATUS    RESTARTS   AGE\n' + 'nginx   1/1     Running   0          5s\n',
    );
  });
  it('uses the minimum width for narrow columns', () => {
    expect(alignTabs('A\tB\nx\ty\n', GET_TABWRITER)).toBe('A     B\nx     y\n');
  });
  it('aligns each block of consecutive lines separately (describe)', () => {
    const text =
      'Name:\tnginx\nNamespace:\tdefault\nIPs:\n  IP:\t10.0.0.1\nControlled By:\tReplicaSet/x\n';
    expect(alignTabs(text, DESCRIBE_TABWRITER)).toBe(
      'Name:       nginx\nNamespace:  default\nIPs:\n  IP:           10.0.0.1\nControlled By:  ReplicaSet/x\n',
    );
  });
  it('nests column blocks: a second column spans only the lines that have it', () => {
    const text = 'a\tb\tc\naaaa\tb\nx\ty\tzz\n';
    expect(alignTabs(text, { minWidth: 0, padding: 1 })).toBe('a    b c\naaaa b\nx    y zz\n');
  });
  it('counts runes, not UTF-16 units', () => {
    expect(alignTabs('é\tx\nab\ty\n', { minWidth: 0, padding: 1 })).toBe('é  x\nab y\n');
  });
});
