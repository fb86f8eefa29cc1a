// Bootstrap of an ingest worker: the sources are TypeScript run through tsx, and a worker thread
// does not inherit the parent's loader hooks, so it registers tsx itself.
import { register } from 'tsx/esm/api';

register();
await import('./ingest-worker.ts');
