/**
 * The Queries view's key (new-user walk: the `+search` mark and the red and grey NXDOMAINs had
 * none). Each sample is drawn as the rows draw it (the same classes: styles.css
 * `.dns-name-search`, logs-panel.css `.lv-legend`) and said in words beside it, so no meaning rests on
 * colour alone (WCAG 2.2, 1.4.1 Use of Color): a problem rcode is also bold, and the grey
 * NXDOMAIN is the one on a `+search` row. What counts as a problem: lib/problem-rows.ts; a
 * search-list expansion: lib/search-expansion.ts.
 */

/** The key, one line that wraps, below the Queries list. */
export function QueryLegend() {
  return (
    <p className="lv-legend small" data-testid="logs-query-legend" aria-label="Key to the queries list">
      <span className="lv-legend-item">
        <span className="dns-name-search">+search</span> after a name: the client asked the shorter name and its resolver appended a search domain (resolv.conf <code>search</code>); hover the name for the full name asked (<code>k2s-dns queries</code> prints that full name, with no mark)
      </span>
      <span className="lv-legend-item">
        <span className="lv-legend-bad">NXDOMAIN</span> in red, bold (also SERVFAIL, REFUSED; the row tinted): a problem — no such name, or no answer the proxy could get
      </span>
      <span className="lv-legend-item">
        <span className="lv-legend-calm">NXDOMAIN</span> in grey, plain, on a <span className="dns-name-search">+search</span> row: glibc trying its next search domain, no problem (the problems filter leaves it out)
      </span>
    </p>
  );
}
