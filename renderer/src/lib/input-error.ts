/**
 * The contract's input errors in the window's words (new-user pass: "Invalid input for
 * dns:start: kubeSwitch: …" named a call and a field the user never saw). The dispatch message
 * is `Invalid input for <call>: <field>: <text>; <field>: <text>.` (electron/core/dispatch.ts).
 */

/** What the window calls each input field of a call. */
const FIELD_LABEL: Record<string, string> = {
  kubeSwitch: 'KubeSwitch listener',
  upstreams: 'Upstreams',
  allowZones: 'Allowed zones',
  engine: 'Engine',
  onDrift: 'When /etc/resolv.conf was changed',
  name: 'Name',
  type: 'Type',
  target: 'Target',
  transport: 'Transport',
};

/** `Invalid input for dns:start: kubeSwitch: must be …` → `KubeSwitch listener: must be …`; other messages unchanged. */
export function inputErrorText(message: string): string {
  const m = /^Invalid input for [a-z]+:[a-zA-Z]+: (.*)$/s.exec(message);
  if (!m) return message;
  return m[1]!
    .split('; ')
    .map((part) => {
      const f = /^([A-Za-z]+)(\.\d+)?: (.*)$/s.exec(part);
      return f && FIELD_LABEL[f[1]!] ? `${FIELD_LABEL[f[1]!]}: ${f[3]}` : part;
    })
    .join('; ');
}
