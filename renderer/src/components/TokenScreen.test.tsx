/**
 * The token screen's words for each trouble: a `#token=` that is no token of this run (new-user
 * report: `#token=deadbeef` said "This address needs the app's token", as with none) says the token
 * given is not this run's and how to get the current address. Rendered to markup.
 */
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { TokenScreen } from './TokenScreen';

const text = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

describe('TokenScreen', () => {
  it('wrong: names the token given as not this run\'s, and the printed URL as the way in', () => {
    const html = renderToStaticMarkup(<TokenScreen trouble="wrong" origin="http://127.0.0.1:41234" given="deadbeef" />);
    expect(html).toContain('data-trouble="wrong"');
    expect(text(/<h2>(.*?)<\/h2>/.exec(html)![1]!)).toBe('This address’s token is not the running app’s');
    expect(text(/data-testid="token-why">(.*?)<\/p>/s.exec(html)![1]!)).toBe('The token this address gives (#token=deadbeef) is not this run’s: each launch of k2s-dns ui prints a new one (64 hex digits), so a token from an earlier launch, or one cut short when copied, does not open the app.');
    expect(html).toContain('<code>#token=deadbeef</code>');
    expect(text(html)).toContain('Open the URL k2s-dns ui printed (it ends in #token=…)');
    expect(text(html)).not.toContain('needs the app’s token');
  });

  it('missing: the address needs the token', () => {
    const html = renderToStaticMarkup(<TokenScreen trouble="missing" origin="http://127.0.0.1:41234" />);
    expect(text(/<h2>(.*?)<\/h2>/.exec(html)![1]!)).toBe('This address needs the app’s token');
  });
});
