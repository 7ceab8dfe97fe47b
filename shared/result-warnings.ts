/**
 * A result message that carries its warnings' texts (start's "K2s DNS is running: … Warning:
 * <text>", electron/core/lifecycle/start.ts finish) printed beside the warnings themselves:
 * each paragraph once, on its warning line (walk 11 L5: RESOLV_CONF_WRITABLE's paragraph twice in
 * the CLI, in the window's timeline result and its warning list). Pure module.
 */

/**
 * `message` without the texts of `warnings` it carries (` Warning: <text>`, or the text alone),
 * ending with "See the warning below." (or "warnings") when it carried any; `message` as is
 * otherwise. A message that is one warning's text whole is the caller's case (nothing is left).
 */
export function withoutCarriedWarnings(message: string, warnings: readonly { message: string }[] | undefined): string {
  const carried = (warnings ?? []).filter((w) => w.message.length > 0 && message.includes(w.message));
  if (carried.length === 0) return message;
  let text = message;
  for (const w of carried) text = text.split(` Warning: ${w.message}`).join('').split(w.message).join('');
  return `${text.trimEnd()} See the warning${carried.length > 1 ? 's' : ''} below.`;
}
