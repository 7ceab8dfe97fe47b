/**
 * The whole window when this tab cannot reach the app (web mode only): its address has no token,
 * or a token the running `k2s-dns ui` refuses. Before (walk 6 L4) such a tab drew the header and
 * tabs with empty panels and a "Missing or wrong token" tooltip on Start; now one screen says why
 * and how to get in. The app strips `#token=…` from the address bar once a page has read it
 * (api/page-token.ts), so the address a user copies from a working tab has no token.
 */

/**
 * Why the tab cannot reach the app: `missing` (no token at all), `wrong` (the address's `#token=`
 * is no token of the app's shape: api/page-token.ts badFragmentToken), `refused` (the backend answered 401).
 */
export type TokenTrouble = 'missing' | 'wrong' | 'refused';

const HEADING: Record<TokenTrouble, string> = {
  missing: 'This address needs the app’s token',
  wrong: 'This address’s token is not the running app’s',
  refused: 'This tab’s token is not the running app’s',
};

/** The token screen; `origin` is the page's `http://127.0.0.1:PORT` (location.origin); `given`: the `wrong` token as the address gave it. */
export function TokenScreen({ trouble, origin, given = null }: { trouble: TokenTrouble; origin: string; given?: string | null }) {
  return (
    <div className="app">
      <header className="app-header">
        <h1>K2s DNS</h1>
      </header>
      <main className="content">
        <section className="panel token-screen" role="alert" data-testid="token-screen" data-trouble={trouble}>
          <h2>{HEADING[trouble]}</h2>
          {trouble === 'wrong' ? (
            <p data-testid="token-why">
              The token this address gives (<code>#token={given ?? ''}</code>) is not this run’s: each launch of <code>k2s-dns ui</code> prints a new one (64 hex digits), so a token from an earlier
              launch, or one cut short when copied, does not open the app.
            </p>
          ) : trouble === 'missing' ? (
            <p data-testid="token-why">
              The app opens at <code>{origin}/#token=…</code>, with a token that is new at every launch. Once a tab has read it, the app removes <code>#token=…</code> from the address bar, so the
              address shown there (<code>{origin}/</code>) does not open the app in another tab.
            </p>
          ) : (
            <p data-testid="token-why">
              The app answered that the token this tab holds is wrong: it is from an earlier launch of <code>k2s-dns ui</code> (each launch prints a new one).
            </p>
          )}
          <ul data-testid="token-how">
            <li>
              Open the URL <code>k2s-dns ui</code> printed (it ends in <code>#token=…</code>): in this tab or a new one. <code>npm start</code> and <code>npm run sandbox</code> print it too.
            </li>
            <li>Or go back to the tab that was opened with it: reloading that tab keeps working, it still holds the token.</li>
          </ul>
        </section>
      </main>
    </div>
  );
}
