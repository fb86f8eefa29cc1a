// `probe --log FILE`: one JSON object per line, keyed so that the generic json-lines format
// (parsers/formats/json-lines.json) reads time, level, msg, method, url, statusCode, rpcId,
// rpcMethod, tool, mcpSessionId and mcpProtocolVersion. Name the file e.g. probe-client.log:
// resolveSource() files it as "client" by name, and the first line names
// StreamableHTTPClientTransport so the content check agrees when the name says nothing.
// Written synchronously, line by line, so a crash still leaves what happened so far (0600).
import { closeSync, openSync, writeSync } from 'node:fs';
import { TriageError } from '../errors.ts';
import type { ProbeLogEvent } from './types.ts';

export interface ProbeLogWriter {
  write(e: ProbeLogEvent): void;
  close(): void;
}

export function openProbeLog(path: string): ProbeLogWriter {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (e) {
    throw new TriageError('TRIAGE_ERR_INPUT', `probe: cannot write --log ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let open = true;
  return {
    write(e) {
      if (open) writeSync(fd, JSON.stringify(e) + '\n');
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
