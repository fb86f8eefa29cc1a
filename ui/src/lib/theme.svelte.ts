// Light / dark: follow the system unless the user picked one (kept in localStorage). The
// resolved theme is set as <html data-theme>, which app.css keys its dark tokens on.
export type ThemeMode = 'auto' | 'light' | 'dark';
const KEY = 'mcp-triage.theme';

class Theme {
  mode = $state<ThemeMode>('auto');
  #media = window.matchMedia('(prefers-color-scheme: dark)');
  system = $state(this.#media.matches ? 'dark' : 'light');
  resolved = $derived(this.mode === 'auto' ? this.system : this.mode);

  constructor() {
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark') this.mode = saved;
    this.#media.addEventListener('change', (e) => {
      this.system = e.matches ? 'dark' : 'light';
      this.apply();
    });
    this.apply();
  }

  apply(): void {
    document.documentElement.dataset.theme = this.resolved;
  }

  /** auto → light → dark → auto */
  cycle(): void {
    this.mode = this.mode === 'auto' ? 'light' : this.mode === 'light' ? 'dark' : 'auto';
    if (this.mode === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, this.mode);
    this.apply();
  }
}

export const theme = new Theme();
