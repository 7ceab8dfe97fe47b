import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCmd } from './run-cmd';

/** PEM texts of a throw-away CA and a server certificate it signed. */
export interface TestCerts {
  caCert: string;
  serverKey: string;
  serverCert: string;
}

/**
 * Makes a self-signed CA and a server certificate for `ip` (subjectAltName IP, what Go's
 * crypto/x509 checks for an IP URL) with openssl(1), P-256 keys, valid 2 days. For the fake
 * API server's in-cluster listener; client-go trusts only the ca.crt it is given.
 */
export async function makeTestCerts(ip: string): Promise<TestCerts> {
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-ca-'));
  try {
    const f = (n: string) => join(dir, n);
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    await runCmd('openssl', ['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '2', '-subj', '/CN=k2s-dns-test-ca',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    await runCmd('openssl', ['req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=kube-apiserver']);
    await writeFile(f('ext.cnf'), `subjectAltName=IP:${ip}\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n`);
    await runCmd('openssl', ['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial',
      '-out', f('server.crt'), '-days', '2', '-extfile', f('ext.cnf')]);
    const [caCert, serverKey, serverCert] = await Promise.all(['ca.crt', 'server.key', 'server.crt'].map((n) => readFile(f(n), 'utf8')));
    return { caCert: caCert!, serverKey: serverKey!, serverCert: serverCert! };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
