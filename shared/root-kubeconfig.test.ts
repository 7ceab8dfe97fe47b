/**
 * The root-only kubeconfig's texts (root-kubeconfig.ts) name its path in a code span: the window
 * reads their spans back (splitCodeSpans, as RichText does), and a path holding backticks written
 * as prose was read as spans of its own (`/srv/k`8`s` showed "8" as code, the path cut up).
 */
import { describe, expect, it } from 'vitest';
import { splitCodeSpans } from './code-span';
import { clusterAsRootMessage, doctorAsRootMeaning, startAsRootLine } from './root-kubeconfig';

const TICKED = '/srv/k`8`s/admin.conf';

describe('root-only kubeconfig texts: the path as one code span', () => {
  it('a path with backticks is fenced longer and read back whole, the prose around it unchanged', () => {
    expect(startAsRootLine(TICKED)).toBe('Start reads the kubeconfig ``/srv/k`8`s/admin.conf`` as root; this user cannot read it, so the Cluster card cannot show the cluster.');
    expect(clusterAsRootMessage(TICKED)).toMatch(/^Only root reads the kubeconfig ``\/srv\/k`8`s\/admin\.conf``: Start reads it as root, but this window cannot show the cluster as this user; to see it here, restart the app with a kubeconfig you can read \(/);
    expect(doctorAsRootMeaning(TICKED, 'sudo npx k2s-dns start')).toBe("`sudo npx k2s-dns start` (and the app's Start) reads the kubeconfig ``/srv/k`8`s/admin.conf`` as root; this user cannot read it, so the cluster was not checked.");
    for (const text of [startAsRootLine(TICKED), clusterAsRootMessage(TICKED), doctorAsRootMeaning(TICKED, 'sudo npx k2s-dns start')]) {
      expect(splitCodeSpans(text).filter((p) => p.code).map((p) => p.text)).toContain(TICKED);
      expect(splitCodeSpans(text).map((p) => p.text).join('')).toBe(text.replace('``/srv/k`8`s/admin.conf``', TICKED).replace('`sudo npx k2s-dns start`', 'sudo npx k2s-dns start'));
    }
  });

  it('a path ending in a backtick, and one without any (K2s\'s /etc/kubernetes/admin.conf)', () => {
    expect(splitCodeSpans(startAsRootLine('/srv/k8s`')).filter((p) => p.code).map((p) => p.text)).toEqual(['/srv/k8s`']);
    expect(startAsRootLine('/etc/kubernetes/admin.conf')).toBe('Start reads the kubeconfig `/etc/kubernetes/admin.conf` as root; this user cannot read it, so the Cluster card cannot show the cluster.');
  });
});
