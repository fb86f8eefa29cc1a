// Tests: the embedded context a shared store is compared with: strict, as a shared store always is
// (`strict` is the context's switch where the redaction tiers exist; elsewhere every ingest is strict).
import type { Context } from '../../../incidents.ts';

export const strict = (ctx: Context): Context => ({ ...ctx, strict: true }) as Context;
