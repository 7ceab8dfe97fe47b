/** Waits (bounded) until `check` is true; `what` names it in the failure. Polls every 100 ms. Resolves the ms it took; throws past `timeoutMs`. */
export async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - t0;
}
