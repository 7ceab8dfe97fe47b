import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractStartInput, startInput, type ContractStartInput } from '../../shared/operation-input';
import { helperArgs, parseHelperArgs, type HelperRequest, type HelperStartInput } from './request';

const label = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const zone = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
const privateV4 = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([a, b, c]) => `10.${a}.${b}.${c}`);

/** Every Start input the helper carries, as the app builds it (the contract part plus kubeconfig and verify name). */
const helperStartArb: fc.Arbitrary<HelperStartInput> = fc.record(
  {
    kubeconfig: fc.stringMatching(/^\/[A-Za-z0-9_+@-]{1,12}(\/[A-Za-z0-9_.+@-]{1,12}){0,3}$/).filter((p) => !p.split('/').includes('..')),
    engine: fc.constantFrom('adguard' as const, 'dnsmasq' as const),
    kubeSwitch: fc.oneof(fc.constant('none'), fc.constant('172.19.1.1'), privateV4),
    verifyName: fc.constantFrom('kubernetes.io', 'k2s.cluster.local.', '_dns-sd._udp.example'),
    allowZones: fc.array(zone, { minLength: 1, maxLength: 100 }),
  },
  { requiredKeys: [] },
);

describe('Start input → helper argv → decoded', () => {
  it('decodes to the same input it encoded, and every decoded input passes the Start schema', () => {
    fc.assert(
      fc.property(helperStartArb, (input) => {
        const req: HelperRequest = { verb: 'start', ...input };
        const decoded = parseHelperArgs(helperArgs(req));
        expect(decoded).toEqual(req);
        const { verb: _verb, ...rest } = decoded;
        expect(startInput.parse(rest)).toEqual(input);
      }),
      { numRuns: 400 },
    );
  });

  it('the contract part of a Start goes to the helper unchanged (no reshaping between the button and the helper)', () => {
    fc.assert(
      fc.property(helperStartArb, (input) => {
        const fromButton: ContractStartInput = contractStartInput.parse({ ...(input.engine ? { engine: input.engine } : {}), ...(input.kubeSwitch ? { kubeSwitch: input.kubeSwitch } : {}), ...(input.allowZones ? { allowZones: input.allowZones } : {}) });
        const { verb: _verb, ...decoded } = parseHelperArgs(helperArgs({ verb: 'start', ...fromButton }));
        expect(decoded).toEqual(fromButton);
      }),
      { numRuns: 200 },
    );
  });

  it('encodes the allowed zones as one comma-joined value and leaves an empty list out', () => {
    expect(helperArgs({ verb: 'start', allowZones: ['corp.example', 'test'] })).toEqual(['start', '--allow-zones', 'corp.example,test']);
    expect(helperArgs({ verb: 'start', allowZones: [] })).toEqual(['start']);
  });
});
