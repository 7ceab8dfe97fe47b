import { describe, expect, it } from 'vitest';
import { electronArgs } from './ui';

describe('electronArgs', () => {
  // New-user pass: `k2s-dns app --kubeconfig PATH` dropped the flag when the Electron window ran.
  it('passes --kubeconfig and --verify-name on to the Electron entry, nothing when unset', () => {
    expect(electronArgs({ kubeconfig: '/home/dev/.kube/k2s.yaml', verifyName: 'www.example.test' })).toEqual(['--kubeconfig', '/home/dev/.kube/k2s.yaml', '--verify-name', 'www.example.test']);
    expect(electronArgs({ port: 8053 })).toEqual([]);
  });
});
