// `npm start`: runs dist/server.mjs, the esbuild bundle of server/main.ts; or, when dist/ is
// missing or older than the sources, server/main.ts through tsx (server/launch.mjs).
import { load } from './launch.mjs';

await load('server', 'server/main.ts');
