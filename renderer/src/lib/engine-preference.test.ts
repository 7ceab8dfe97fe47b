/** The Engine select's choice is kept for the app in localStorage (issue 20 low: it was per window). */
import { describe, expect, it } from 'vitest';
import { ENGINE_KEY, engineChoiceOf, loadEngineChoice, saveEngineChoice } from './engine-preference';

/** A Storage over a Map, optionally refusing writes (a full or disabled storage). */
function memoryStorage(refuse = false): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => {
      if (refuse) throw new DOMException('quota', 'QuotaExceededError');
      m.set(k, v);
    },
  };
}

describe('the kept engine choice', () => {
  it('a choice is read back; Automatic removes it', () => {
    const s = memoryStorage();
    expect(loadEngineChoice(s)).toBe('auto');
    saveEngineChoice('dnsmasq', s);
    expect(s.getItem(ENGINE_KEY)).toBe('dnsmasq');
    expect(loadEngineChoice(s)).toBe('dnsmasq');
    saveEngineChoice('adguard', s);
    expect(loadEngineChoice(s)).toBe('adguard');
    saveEngineChoice('auto', s);
    expect(s.getItem(ENGINE_KEY)).toBeNull();
    expect(loadEngineChoice(s)).toBe('auto');
  });
  it('anything that is no engine name is Automatic; no or a refusing storage keeps nothing and throws nothing', () => {
    expect(engineChoiceOf('bind9')).toBe('auto');
    expect(engineChoiceOf(null)).toBe('auto');
    expect(loadEngineChoice(null)).toBe('auto');
    expect(() => saveEngineChoice('dnsmasq', null)).not.toThrow();
    const full = memoryStorage(true);
    expect(() => saveEngineChoice('dnsmasq', full)).not.toThrow();
    expect(loadEngineChoice(full)).toBe('auto');
  });
});
