import { spawn, fork, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';

import { fileURLToPath } from 'node:url';

// incidents are written to samples/recorded-fresh/<name>/ (FRESH_ROOT to record elsewhere); nginx's
// run folders go to <root>/.run/ (not committed)
const H = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = process.env.FRESH_ROOT ?? path.resolve(H, '../../recorded-fresh');
export const sleep = (ms) => new Promise(r => setTimeout(r, ms));

const FORMATS = {
  combined: null,
  json: `log_format mcpjson escape=json '{"time":"$time_iso8601","remote_addr":"$remote_addr","method":"$request_method","uri":"$request_uri","status":$status,"bytes_sent":$body_bytes_sent,"request_length":$request_length,"request_time":$request_time,"upstream_addr":"$upstream_addr","upstream_status":"$upstream_status","upstream_response_time":"$upstream_response_time","mcp_session_id":"$http_mcp_session_id","user_agent":"$http_user_agent"}';`,
  custom: `log_format mcpkv '$remote_addr [$time_local] "$request" $status $body_bytes_sent rt=$request_time uct=$upstream_connect_time urt=$upstream_response_time ua=$upstream_addr us=$upstream_status sid=$http_mcp_session_id';`,
};
const FMT_NAME = { combined: 'combined', json: 'mcpjson', custom: 'mcpkv' };

export function startNginx(dir, name, { port, upstreams, format = 'combined', readTimeout = '300s', bodySize = '1m', buffering = false, gzipSse = false, errLevel = 'warn', extraUpstream = '' }) {
  const run = path.join(ROOT, '.run', name);
  fs.mkdirSync(run, { recursive: true });
  const up = upstreams.map(p => `    server 127.0.0.1:${p};`).join('\n');
  const conf = `worker_processes 1;
pid ${run}/nginx.pid;
error_log ${dir}/nginx-error.log ${errLevel};
events { worker_connections 256; }
http {
  client_body_temp_path ${run}/body; proxy_temp_path ${run}/proxy;
  fastcgi_temp_path ${run}/fcgi; uwsgi_temp_path ${run}/uwsgi; scgi_temp_path ${run}/scgi;
  ${FORMATS[format] || ''}
  access_log ${dir}/nginx-access.log ${FMT_NAME[format]};
  upstream mcp_backend {
${up}
${extraUpstream}
  }
  server {
    listen 127.0.0.1:${port};
    server_name mcp.internal;
    client_max_body_size ${bodySize};
    location /mcp {
      proxy_pass http://mcp_backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
${buffering ? '      proxy_buffering on;\n      proxy_ignore_headers X-Accel-Buffering;' : '      proxy_buffering off;\n      proxy_cache off;'}
${gzipSse ? '      gzip on;\n      gzip_types application/json text/event-stream;\n      gzip_min_length 256;\n' : ''}      proxy_read_timeout ${readTimeout};
    }
  }
}
`;
  fs.writeFileSync(path.join(run, 'nginx.conf'), conf);
  execFileSync('/usr/sbin/nginx', ['-t', '-q', '-p', run, '-e', `${dir}/nginx-error.log`, '-c', path.join(run, 'nginx.conf')], { stdio: 'inherit' });
  const p = spawn('/usr/sbin/nginx', ['-p', run, '-e', `${dir}/nginx-error.log`, '-c', path.join(run, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
  return p;
}

export function startServer(dir, env, logfile = 'server.log') {
  const fd = fs.openSync(path.join(dir, logfile), 'a');
  const p = spawn(process.execPath, [path.join(H, 'server.mjs')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  return p;
}
export async function waitPort(port) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise(r => { const s = net.connect(port, '127.0.0.1'); s.on('connect', () => { s.destroy(); r(true); }); s.on('error', () => r(false)); });
    if (ok) return; await sleep(50);
  }
  throw new Error('port ' + port + ' not up');
}

export function runClient(dir, scenario, env, hooks = {}, logfile = 'client.log') {
  const fd = fs.openSync(path.join(dir, logfile), 'a');
  return new Promise((resolve) => {
    const c = fork(path.join(H, 'client.mjs'), [scenario], { cwd: ROOT, env: { ...process.env, DEBUG_COLORS: '0', ...env }, stdio: ['ignore', fd, fd, 'ipc'] });
    c.on('message', async (m) => { if (hooks[m]) await hooks[m](); c.send(`${m}:done`); });
    c.on('exit', (code) => resolve(code));
  });
}
export function stop(p, sig = 'SIGTERM') { return new Promise(r => { if (!p || p.exitCode !== null || p.signalCode !== null) return r(); p.once('exit', r); p.kill(sig); }); }

export function prepDir(name) {
  const dir = path.join(ROOT, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
export function label(dir, obj) { fs.writeFileSync(path.join(dir, 'label.json'), JSON.stringify(obj, null, 2) + '\n'); }
