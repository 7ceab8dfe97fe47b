/**
 * warmLookup (gai-lookup.ts), which start's service step runs while the proxy starts: it warms
 * node:net isIP only — no getaddrinfo (node:dns lookup, which could leave the host and show in the
 * exact query log), no DNS query of node:dns's resolver, no process — and never throws.
 */
import { describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ dns: [] as string[], spawn: [] as string[], isIP: [] as string[] }));

vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns')>();
  const spy = (name: string) => (..._args: unknown[]) => {
    calls.dns.push(name);
    throw new Error(`node:dns ${name} called`);
  };
  const promises = { ...real.promises, lookup: spy('promises.lookup'), resolve: spy('promises.resolve'), resolve4: spy('promises.resolve4'), resolve6: spy('promises.resolve6') };
  const mocked = { ...real, lookup: spy('lookup'), lookupService: spy('lookupService'), resolve: spy('resolve'), resolve4: spy('resolve4'), resolve6: spy('resolve6'), reverse: spy('reverse'), promises };
  return { ...mocked, default: mocked };
});

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  const spy = (name: string) => (..._args: unknown[]) => {
    calls.spawn.push(name);
    throw new Error(`node:child_process ${name} called`);
  };
  const mocked = { ...real, spawn: spy('spawn'), spawnSync: spy('spawnSync'), exec: spy('exec'), execSync: spy('execSync'), execFile: spy('execFile'), execFileSync: spy('execFileSync'), fork: spy('fork') };
  return { ...mocked, default: mocked };
});

vi.mock('node:net', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:net')>();
  const isIP = (input: string) => {
    calls.isIP.push(input);
    return real.isIP(input);
  };
  return { ...real, isIP, default: { ...real, isIP } };
});

describe('warmLookup', () => {
  it('warms node:net isIP with a name, and looks nothing up, spawns nothing, throws nothing', async () => {
    const { warmLookup } = await import('./gai-lookup');
    expect(() => warmLookup()).not.toThrow();
    expect(warmLookup()).toBeUndefined();
    // Twice per warm-up: the first run compiles the expressions, the second tiers them up (gai-lookup.ts).
    expect(calls.isIP).toEqual(['localhost', 'localhost', 'localhost', 'localhost']);
    expect(calls.dns).toEqual([]);
    expect(calls.spawn).toEqual([]);
  });

  it('the mocks catch a lookup: a real gaiLookup through node:dns is seen (so the test above can fail)', async () => {
    const { nodeLookupAll } = await import('./gai-lookup');
    expect(() => nodeLookupAll('localhost', () => undefined)).toThrow('node:dns lookup called');
    expect(calls.dns).toEqual(['lookup']);
    calls.dns.length = 0;
  });
});
