import { describe, expect, it } from 'vitest';
import { clusterServfailNote } from './servfail-note';

const zones = [
  { zone: 'cluster.local', upstream: '172.21.0.10' },
  { zone: '21.172.in-addr.arpa', upstream: '172.21.0.10:5353' },
];

describe('clusterServfailNote', () => {
  it('a SERVFAIL for a name in a cluster zone: the proxy got no answer from CoreDNS at its kube-dns address', () => {
    expect(clusterServfailNote('nginx.default.svc.cluster.local', 'A', 'SERVFAIL', zones, 'run `k2s-dns status`, which says why')).toBe(
      'SERVFAIL: the proxy could not get an answer from CoreDNS (kube-dns 172.21.0.10:53), where it sends the cluster zone cluster.local; run `k2s-dns status`, which says why.',
    );
    expect(clusterServfailNote('Nginx.Default.SVC.cluster.local.', 'A', 'SERVFAIL', zones, 'w')).toMatch(/^SERVFAIL: .*kube-dns 172\.21\.0\.10:53\), .* zone cluster\.local; w\.$/);
    // A PTR of an IP asks its reverse name.
    expect(clusterServfailNote('172.21.0.10', 'PTR', 'SERVFAIL', zones, 'w')).toMatch(/kube-dns 172\.21\.0\.10:5353\), where it sends the cluster zone 21\.172\.in-addr\.arpa; w\.$/);
  });
  it('none for another rcode, or a name in no cluster zone', () => {
    expect(clusterServfailNote('nginx.default.svc.cluster.local', 'A', 'NXDOMAIN', zones, 'w')).toBeNull();
    expect(clusterServfailNote('www.example.test', 'A', 'SERVFAIL', zones, 'w')).toBeNull();
    expect(clusterServfailNote('nginx.default.svc.cluster.local', 'A', 'SERVFAIL', [], 'w')).toBeNull();
  });
});
