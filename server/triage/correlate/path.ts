/**
 * A request path without its query or fragment: what a route matches (RFC 3986 §3.3–3.5). One copy for the
 * span joins, the facts and the legacy endpoint reading, so they never disagree on what "the same path" is.
 */
export function stripQuery(p: string): string {
  const q = p.indexOf('?');
  const h = p.indexOf('#');
  const cut = q < 0 ? h : h < 0 ? q : Math.min(q, h);
  return cut < 0 ? p : p.slice(0, cut);
}
