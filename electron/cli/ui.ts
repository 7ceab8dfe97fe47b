/** `k2s-dns ui|app`: wired to the web server once the real backend exists. */
export async function runUi(_mode: 'ui' | 'app' | string, _port: number | undefined): Promise<number> {
  process.stderr.write('The UI is not wired yet.\n');
  return 1;
}
