// The verify panel: run the probe from the server against a URL the user typed (POST /verify);
// the last result is kept with the incident.
import { describeError, lastVerification, verifyIncident, type Verification } from '../api.ts';

export class VerifyState {
  readonly id: string;
  url = $state('');
  tool = $state('');
  args = $state('');
  running = $state(false);
  error = $state<string | null>(null);
  last = $state<Verification | null>(null);
  /** The stored result has been asked for (found or not): the URL field will not be prefilled after this. */
  loaded = $state(false);

  #ctrl = new AbortController();
  /** A probe was started here: the stored result that load() fetches is older than it. */
  #ran = false;

  constructor(id: string) {
    this.id = id;
  }

  async load(): Promise<void> {
    try {
      const stored = await lastVerification(this.id, this.#ctrl.signal);
      // (a probe run while this was loading is newer: a slow load must not put the older result back)
      if (this.#ran) return;
      this.last = stored;
      if (this.last && !this.url) this.url = this.last.result.url;
    } catch {
      /* optional */
    } finally {
      this.loaded = true;
    }
  }

  async run(): Promise<void> {
    this.error = null;
    const url = this.url.trim();
    if (!/^https?:\/\/\S+$/i.test(url)) {
      this.error = 'Enter the MCP endpoint as a full http:// or https:// URL, e.g. http://127.0.0.1:3000/mcp';
      return;
    }
    let args: Record<string, unknown> | undefined;
    if (this.args.trim()) {
      try {
        const v: unknown = JSON.parse(this.args);
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
        args = v as Record<string, unknown>;
      } catch {
        this.error = 'Arguments must be a JSON object, e.g. {"order_id": "ORD-1"}';
        return;
      }
    }
    this.running = true;
    this.#ran = true;
    try {
      this.last = await verifyIncident(this.id, { url, tool: this.tool.trim() || undefined, args }, this.#ctrl.signal);
    } catch (e) {
      if (!this.#ctrl.signal.aborted) this.error = describeError(e);
    } finally {
      if (!this.#ctrl.signal.aborted) this.running = false;
    }
  }

  dispose(): void {
    this.#ctrl.abort();
  }
}
