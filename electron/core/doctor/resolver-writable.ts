/**
 * Doctor check `resolv-writable`: a resolver file a user could write where K2s DNS keeps or runs
 * one (shared/writable-resolver.ts; the network follower's owner rule, shared/network-writer.ts
 * resolverOwnerRefusal) — the saved original (stop puts it back so: sixth walk M3), K2s DNS's own
 * /etc/resolv.conf made writable in place (L1), and with no start recorded the file a start would
 * save (it warns RESOLV_CONF_WRITABLE then).
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { resolverOwnerProblem } from '../../../shared/network-writer';
import { currentResolverWritable, liveResolverWritable, savedOriginalWritable, type WritableResolverWords } from '../../../shared/writable-resolver';
import { resolverFileOwner } from '../host/resolver-owner';
import type { DoctorContext } from './context';

/** `resolv-writable`: warn while the saved original, K2s DNS's live file or (no start recorded) the file a start would save fails the owner rule; ok otherwise. */
export async function checkResolverWritable(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'resolv-writable', title: 'Who may write /etc/resolv.conf' };
  const frontEnd = ctx.opts.frontEnd ?? 'cli';
  const found: { title: string; words: WritableResolverWords; what: string }[] = [];
  if (ctx.state) {
    const saved = await resolverFileOwner(ctx.deps.fs, ctx.state.resolvConf);
    const words = saved ? savedOriginalWritable(saved) : null;
    if (saved && words) found.push({ title: 'The saved original /etc/resolv.conf', words, what: resolverOwnerProblem(saved)! });
  }
  if (ctx.k2sOwnsResolver && ctx.current?.kind === 'file') {
    const words = liveResolverWritable(ctx.current);
    if (words) found.push({ title: "K2s DNS's /etc/resolv.conf", words, what: resolverOwnerProblem(ctx.current)! });
  } else if (!ctx.state && !ctx.stateUnreadable && !ctx.k2sOwnsResolver && ctx.current) {
    // No start recorded: the file a start would save as the original.
    const now = await resolverFileOwner(ctx.deps.fs, ctx.current);
    const words = now ? currentResolverWritable(now) : null;
    if (now && words) found.push({ title: '/etc/resolv.conf', words, what: resolverOwnerProblem(now)! });
  }
  if (found.length === 0) {
    return { ...base, severity: 'ok', title: 'Only root may write /etc/resolv.conf', meaning: 'The resolver files K2s DNS runs with or keeps are owned by root or a system account and not writable by other users (the network follower\'s owner rule).', fix: null };
  }
  const cli = found.map((f) => f.words.fix.cli).join(' ');
  return {
    ...base,
    severity: 'warn',
    title: found.map((f) => `${f.title} is ${f.what}`).join('; '),
    meaning: found.map((f) => f.words.meaning).join(' '),
    fix: cli,
    remedy: { action: null, gui: found.map((f) => f.words.fix.gui).join(' '), cli },
    detail: { files: found.map((f) => ({ file: f.title, problem: f.what })) },
  };
}
