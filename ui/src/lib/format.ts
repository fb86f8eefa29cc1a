// Display helpers. All return plain strings: log text is never turned into markup.

export function formatTs(ms: number | null): string {
  if (ms === null) return '—';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '—';
  const iso = d.toISOString(); // 2026-01-02T03:04:05.678Z
  return `${iso.slice(5, 10)} ${iso.slice(11, 23)}`;
}

export function formatFullTs(ms: number | null): string {
  if (ms === null) return 'no timestamp';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'invalid timestamp' : d.toISOString();
}

export function formatCreated(v: string | number): string {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return String(v);
  const now = Date.now();
  const s = Math.round((now - d.getTime()) / 1000);
  if (s >= 0 && s < 60) return 'just now';
  if (s >= 0 && s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s >= 0 && s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function evidenceKey(file: string, line: number): string {
  return `${file}:${line}`;
}
