/**
 * The Node side of the engine table: each engine of shared/engines/table.ts (same names, same
 * order) with its config file, renderer, command line and service account. A missing or extra
 * name is a type error here.
 */
import type { EngineName } from '../../../shared/engines/table';
import { ADGUARD } from './adguard';
import { DNSMASQ } from './dnsmasq';
import type { EngineRuntime } from './runtime';

export type { BinaryOptions, EngineRuntime } from './runtime';

/** Every engine's runtime, by name. */
export const ENGINE_RUNTIMES: Readonly<Record<EngineName, EngineRuntime>> = { adguard: ADGUARD, dnsmasq: DNSMASQ };

/** The runtime of `name`. */
export function engineRuntime(name: EngineName): EngineRuntime {
  return ENGINE_RUNTIMES[name];
}
