// Tests: the embedded context a shared store is compared with: strict, as a shared store always is
// (redaction.md "Tiers").
import type { Context } from '../../../incidents.ts';

export const strict = (ctx: Context): Context => ({ ...ctx, strict: true });
