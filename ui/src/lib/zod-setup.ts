// zod 4 probes `new Function` to compile fast object parsers when a schema is *built*.
// The server's CSP has no 'unsafe-eval', so the probe logs a CSP violation on every page load.
// Turn the JIT off before any schema module is evaluated: import this module first.
import { z } from 'zod';

z.config({ jitless: true });
