// An ingest worker thread: a ChunkRunner (chunk-runner.ts) behind the thread's port.
import { parentPort } from 'node:worker_threads';
import { ChunkRunner, type ToRunner } from './chunk-runner.ts';

const port = parentPort!;
const runner = new ChunkRunner((m, transfer) => port.postMessage(m, transfer ?? []));
port.on('message', (m: ToRunner) => runner.receive(m));
