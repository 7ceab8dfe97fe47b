import { afterEach, describe, expect, it } from 'vitest';
import { useVendorCacheJob, vendorCacheOptions } from './vendor';

describe('vendorCacheOptions', () => {
  afterEach(() => useVendorCacheJob(['ui']));

  it('a CLI command keeps its own cache of the script, written at exit (with the code it ran) when the run did the command\'s work', () => {
    const opts = vendorCacheOptions('vendor-client-node.cjs', 'start', ['start', '--json']);
    expect(opts).toEqual({ name: 'vendor-client-node.cjs.start', writeAt: 'exit', keepIf: expect.any(Function) });
    expect([0, 1, 2, 3, 4].map((code) => opts.keepIf!(code))).toEqual([true, true, false, false, false]);
    expect(vendorCacheOptions('vendor-client-node.cjs', 'start', ['start', '--help']).keepIf!(0)).toBe(false);
  });

  it('without a command (the helper, the window) the script\'s own name, written at load', () => {
    expect(vendorCacheOptions('vendor-client-node.cjs', null)).toEqual({});
  });
});

describe('useVendorCacheJob', () => {
  it('a short command is its own job; the window\'s and the companions\' verbs none (written at load); any other word one shared name', () => {
    expect(useVendorCacheJob(['start'])).toBe('start');
    expect(useVendorCacheJob(['status', '--json'])).toBe('status');
    for (const verb of ['ui', 'app', 'follow-watch', 'capture-watch']) expect(useVendorCacheJob([verb])).toBeNull();
    expect(useVendorCacheJob(['Bad Verb!'])).toBe('other');
    expect(useVendorCacheJob([])).toBe('other');
  });
});
