import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../shared/error-codes';
import { CALLER_VARS, INTERNAL_VERB_REFUSED, internalVerbRefusal } from './internal-caller';
import { internalVerbEnv } from './child-env';
import { renderFollowUnit } from '../../../shared/systemd-unit';
import { renderCaptureUnit } from '../../../shared/capture-unit';

describe('internalVerbRefusal', () => {
  it('refuses when PKEXEC_UID or SUDO_UID is set (any value), with words that say the verb is internal', () => {
    expect(internalVerbRefusal('capture-watch', { PKEXEC_UID: '1000' })).toBe('`capture-watch` is internal to k2s-dns: only its own start runs it, never through pkexec (PKEXEC_UID is set). Use the start and stop commands.\n');
    expect(internalVerbRefusal('follow-watch', { SUDO_UID: '0', SUDO_USER: 'root' })).toBe('`follow-watch` is internal to k2s-dns: only its own start runs it, never through sudo (SUDO_UID is set). Use the start and stop commands.\n');
    expect(internalVerbRefusal('follow-watch', { PKEXEC_UID: '' })).not.toBeNull();
  });

  it('lets the verb run without those variables (start\'s own spawn, a systemd unit)', () => {
    expect(internalVerbRefusal('capture-watch', { PATH: '/usr/bin', HOME: '/root' })).toBeNull();
    expect(INTERNAL_VERB_REFUSED).toBe(EXIT.refused);
  });

  it('internalVerbEnv drops every pkexec/sudo variable and NODE_EXTRA_CA_CERTS, keeps the rest, and the result is not refused', () => {
    const env = { PATH: '/usr/bin', LANG: 'C.UTF-8', K2S_DNS_CLI: '/x/k2s-dns', NODE_EXTRA_CA_CERTS: '/ca.pem', PKEXEC_UID: '1000', SUDO_UID: '1000', SUDO_GID: '1000', SUDO_USER: 'alice', SUDO_COMMAND: '/usr/bin/k2s-dns start', SUDO_HOME: '/home/alice' };
    const out = internalVerbEnv(env);
    expect(out).toEqual({ PATH: '/usr/bin', LANG: 'C.UTF-8', K2S_DNS_CLI: '/x/k2s-dns' });
    expect(internalVerbRefusal('capture-watch', out)).toBeNull();
    expect(env.PKEXEC_UID).toBe('1000');
    expect([...CALLER_VARS].sort()).toEqual(['PKEXEC_UID', 'SUDO_COMMAND', 'SUDO_GID', 'SUDO_HOME', 'SUDO_UID', 'SUDO_USER']);
  });

  it('the systemd units that run the internal verbs pass no environment: their services get the manager\'s, not the helper\'s (systemd.exec(5))', () => {
    for (const unit of [renderFollowUnit(['/usr/bin/node', '/usr/lib/k2s-dns/dist/k2s-dns.mjs', 'follow-watch']), renderCaptureUnit(['/usr/bin/k2s-dns', 'capture-watch'])]) {
      expect(unit).toMatch(/^ExecStart=/m);
      expect(unit).not.toMatch(/^(Environment|EnvironmentFile|PassEnvironment)=/m);
      expect(unit).not.toMatch(/PKEXEC_UID|SUDO_/);
    }
  });
});
