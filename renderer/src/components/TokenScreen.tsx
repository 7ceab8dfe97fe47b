/**
 * The whole window when this tab cannot reach the app (web mode only): its address has no token,
 * or a token the running `k2s-dns ui` refuses. Before (walk 6 L4) such a tab drew the header and
 * tabs with empty panels and a "Missing or wrong token" tooltip on Start; now one screen says why
 * and how to get in. The app strips `#token=…` from the address bar once a page has read it
 * (api/page-token.ts), so the address a user copies from a working tab has no token.
 */

/** Why the tab cannot reach the app: `missing` (no token at all), `refused` (the backend answered 401). */
export type TokenTrouble = 'missing' | 'refused';

/** The token screen; `origin` is the page's `http://127.0.0.1:PORT` (location.origin). */
export function TokenScreen({ trouble, origin }: { trouble: TokenTrouble; origin: string }) {
  return (
    <div className="app">
      <header className="app-header">
        <h1>K2s DNS</h1>
      </header>
      <main className="content">
        <section className="panel token-screen" role="alert" data-testid="token-screen" data-trouble={trouble}>
          <h2>{trouble === 'missing' ? 'This address needs the app’s token' : 'This tab’s token is not the running app’s'}</h2>
          {trouble === 'missing' ? (
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
