// A tiny history router: the path lives in $state, links are plain <a href> intercepted
// at the document, and the server's SPA fallback makes every deep link reloadable.

export type Route = { name: 'incidents' } | { name: 'incident'; id: string; tab: IncidentTab } | { name: 'not-found'; path: string };

/** The incident page's tabs, each its own deep link: /incidents/:id[/sessions|/report]. */
export const INCIDENT_TABS = ['analysis', 'sessions', 'report'] as const;
export type IncidentTab = (typeof INCIDENT_TABS)[number];

export function matchRoute(path: string): Route {
  if (path === '/' || path === '') return { name: 'incidents' };
  const m = /^\/incidents\/([^/]+)(?:\/(sessions|report))?\/?$/.exec(path);
  if (m) return { name: 'incident', id: decodeURIComponent(m[1]!), tab: (m[2] as IncidentTab | undefined) ?? 'analysis' };
  return { name: 'not-found', path };
}

export class Router {
  path = $state(location.pathname);
  search = $state(location.search);
  route = $derived(matchRoute(this.path));

  constructor() {
    window.addEventListener('popstate', () => this.sync());
    document.addEventListener('click', (e) => this.#onClick(e));
  }

  navigate(to: string, opts: { replace?: boolean } = {}): void {
    const url = new URL(to, location.href);
    if (url.origin !== location.origin) {
      location.assign(url);
      return;
    }
    const same = url.pathname === location.pathname && url.search === location.search;
    if (opts.replace || same) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    this.sync();
    if (!same && !url.hash) window.scrollTo(0, 0);
  }

  sync(): void {
    this.path = location.pathname;
    this.search = location.search;
  }

  #onClick(e: MouseEvent): void {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download') || a.dataset.external !== undefined) return;
    const href = a.getAttribute('href');
    if (!href || href.startsWith('#')) return;
    const url = new URL(href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    e.preventDefault();
    this.navigate(url.pathname + url.search + url.hash);
  }
}

export const router = new Router();

export function incidentHref(id: string, tab: IncidentTab = 'analysis'): string {
  return `/incidents/${encodeURIComponent(id)}${tab === 'analysis' ? '' : `/${tab}`}`;
}

/** Replace some query parameters of the current URL (empty/null removes one), keeping the rest. */
export function setParams(params: Record<string, string | null | undefined>, opts: { push?: boolean } = {}): void {
  const u = new URL(location.href);
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '') u.searchParams.delete(k);
    else u.searchParams.set(k, v);
  }
  const next = u.pathname + u.search + u.hash;
  if (next === location.pathname + location.search + location.hash) return;
  if (opts.push) history.pushState(null, '', next);
  else history.replaceState(null, '', next);
  router.sync();
}

export function param(name: string): string | null {
  return new URLSearchParams(router.search).get(name);
}
