import { expect, it } from 'vitest';
import { renderResolvedDropIn } from './resolved-dropin';

it('renders the resolved.conf drop-in K2s uses', () => {
  expect(renderResolvedDropIn()).toBe(
    '# Managed by K2s: sends all lookups from systemd-resolved to the K2s DNS proxy on 127.0.0.1.\n' +
      '# Removed by k2s stop or uninstall.\n[Resolve]\nDNS=127.0.0.1\nDomains=~.\n',
  );
});
