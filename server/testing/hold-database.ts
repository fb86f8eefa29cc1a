// Test-only: keep a DuckDB file open read-write (as a long `analyze --db` would) until killed.
// argv: <database file>. Prints "open" once DuckDB holds the file.
import { DuckDBInstance } from '@duckdb/node-api';

const db = await DuckDBInstance.create(process.argv[2]!);
const c = await db.connect();
await c.run('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
process.stdout.write('open\n');
setInterval(() => {}, 1000);
