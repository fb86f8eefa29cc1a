// The privacy mode of an incident (redaction.md "Tiers"; README "Data and privacy"): what the
// stored text already had removed when it was written. Recorded per incident, so every exit
// knows what is left for it to do, and the UI and CLI can say it.
import { z } from 'zod';

/**
 * - standard: session ids pseudonymised and credentials removed before storage; personal data
 *   (e-mails, IPs, hosts, user paths, phones, names, addresses), encoded copies and business data
 *   (tool arguments and results) stay in the local database and are redacted at every exit.
 * - strict: everything redacted before storage, as the report would be.
 */
export const PrivacyMode = z.enum(['standard', 'strict']);
export type PrivacyMode = z.infer<typeof PrivacyMode>;

/** One line for the UI, the CLI and exports. */
export const PRIVACY_MODE_TEXT: Record<PrivacyMode, string> = {
  standard: 'privacy mode: standard (PII redacted at exits)',
  strict: 'privacy mode: strict (everything redacted at ingest)',
};

/** Adding files in one mode to an incident stored in another: the incident holds what the weaker one kept. */
export function combinedMode(a: PrivacyMode | null, b: PrivacyMode): PrivacyMode {
  return a === 'standard' || b === 'standard' ? 'standard' : 'strict';
}
