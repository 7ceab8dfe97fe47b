import { describe, expect, it } from 'vitest';
import { EXTRA_CA_CERTS_VAR, tlsFreeNodeEnv } from './child-env';

describe('tlsFreeNodeEnv', () => {
  it('drops NODE_EXTRA_CA_CERTS and keeps everything else, without changing the given environment', () => {
    const env = { PATH: '/usr/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', K2S_DNS_CLI: '/x/k2s-dns', LANG: 'C.UTF-8' };
    expect(tlsFreeNodeEnv(env)).toEqual({ PATH: '/usr/bin', K2S_DNS_CLI: '/x/k2s-dns', LANG: 'C.UTF-8' });
    expect(env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/ca-certificates.crt');
    expect(EXTRA_CA_CERTS_VAR).toBe('NODE_EXTRA_CA_CERTS');
  });
});
