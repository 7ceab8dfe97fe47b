/**
 * What try-package prints about reading the installed documentation in the Debian 13 test host.
 * That host is debootstrap's minbase (scripts/build-debian-host.sh): no man(1) and no less(1), so
 * `man k2s-dns` and `zless` fail there. k2s-dns(1) is the `k2s-dns --help` text plus FILES
 * (scripts/package/texts.ts manPage), and more(1) and zcat(1) are in minbase.
 */
import { DOC_DIR } from '../../scripts/package/layout';

/** One line: what to run instead of `man k2s-dns` and `zless` in the test host. */
export const TEST_HOST_DOCS = `No man or zless in this minimal host (Debian minbase): \`k2s-dns --help\` prints what k2s-dns(1) holds (\`k2s-dns help VERB\` per command), and \`zcat ${DOC_DIR}/README.md.gz | more\` reads the README (${DOC_DIR}/docs/*.md.gz the same way).`;
