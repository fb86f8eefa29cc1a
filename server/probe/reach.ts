// Step "reach": can a TCP (and for https, TLS) connection be made at all? Separates "nothing
// listens there / DNS / certificate" from anything MCP does. Opens and closes one socket; sends
// no HTTP request.
import { lookup } from 'node:dns/promises';
import { isIP, connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

export interface ReachOutcome {
  ok: boolean;
  evidence: string;
  error?: unknown;
  host: string;
  port: number;
}

export function hostPort(url: URL): { host: string; port: number } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`timed out after ${ms} ms`), { code: 'PROBE_TIMEOUT' });
}

export async function reach(url: URL, timeoutMs: number): Promise<ReachOutcome> {
  const { host, port } = hostPort(url);
  const https = url.protocol === 'https:';
  const parts: string[] = [];
  let address = host;
  try {
    if (!isIP(host)) {
      const t0 = performance.now();
      const addrs = await Promise.race([lookup(host, { all: true }), new Promise<never>((_, rej) => setTimeout(() => rej(timeoutError(timeoutMs)), timeoutMs).unref())]);
      address = addrs[0]!.address;
      parts.push(
        `DNS ${host} → ${addrs
          .map((a) => a.address)
          .slice(0, 3)
          .join(', ')} (${Math.round(performance.now() - t0)} ms)`,
      );
    }
    const t1 = performance.now();
    const sock = await new Promise<Socket | TLSSocket>((resolve, reject) => {
      const s: Socket = https ? tlsConnect({ host: address, port, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }) : tcpConnect({ host: address, port });
      const timer = setTimeout(() => {
        s.destroy();
        reject(timeoutError(timeoutMs));
      }, timeoutMs);
      s.once(https ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (e) => {
        clearTimeout(timer);
        s.destroy();
        reject(e);
      });
    });
    const ms = Math.round(performance.now() - t1);
    if (https) {
      const t = sock as TLSSocket;
      const cert = t.getPeerCertificate();
      const cn = cert?.subject?.CN;
      parts.push(
        `TLS ${t.getProtocol() ?? '?'} to ${address}:${port} in ${ms} ms${cn ? `, certificate CN=${cn}` : ''}${cert?.valid_to ? ` valid until ${new Date(cert.valid_to).toISOString().slice(0, 10)}` : ''}`,
      );
    } else parts.push(`TCP ${address}:${port} connected in ${ms} ms`);
    sock.destroy();
    return { ok: true, evidence: parts.join('; '), host, port };
  } catch (e) {
    parts.push(`${https ? 'TLS' : 'TCP'} ${address}:${port} failed: ${(e as { code?: string }).code ?? (e as Error).message}`);
    return { ok: false, evidence: parts.join('; '), error: e, host, port };
  }
}
