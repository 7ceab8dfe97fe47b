import { describe, expect, it } from 'vitest';
import { CONTRACT, describeIssues } from '../../../shared/contract';
import { inputErrorText } from './input-error';

describe('inputErrorText', () => {
  it('names the KubeSwitch listener as the window does, not the contract field of dns:start', () => {
    const parsed = CONTRACT['dns:start'].input.safeParse({ kubeSwitch: '8.8.8.8' });
    expect(parsed.success).toBe(false);
    const message = `Invalid input for dns:start: ${describeIssues(parsed.error!)}.`;
    const text = inputErrorText(message);
    expect(text.startsWith('KubeSwitch listener: ')).toBe(true);
    expect(text).not.toMatch(/dns:start|kubeSwitch/);
  });
  it('leaves other messages as they are', () => {
    expect(inputErrorText('K2s DNS is already running; stop it first.')).toBe('K2s DNS is already running; stop it first.');
  });
});

describe('the Host DNS card\'s error for a refused KubeSwitch address', () => {
  it('says "KubeSwitch listener: …" (the store over the real contract validation)', async () => {
    const { createDnsStore } = await import('../stores/dns');
    const { inProcessApi } = await import('../../../e2e/support/in-process-api');
    const store = createDnsStore(inProcessApi());
    await store.getState().start({ kubeSwitch: '8.8.8.8' });
    const error = store.getState().error ?? '';
    expect(error).toMatch(/^KubeSwitch listener: /);
    expect(error).not.toMatch(/Invalid input|dns:start|kubeSwitch/);
  });
});
