// The ordered rule table: the first rule whose condition holds decides. Add a rule as one
// file in this folder and list it here, more specific rules first.
import type { Rule } from '../rule.ts';
import { optionalStream } from './optional-stream.ts';
import { route404 } from './route-404.ts';
import { sessionExpired404 } from './session-expired-404.ts';
import { unclassified } from './unclassified.ts';

export const RULES: readonly Rule[] = [optionalStream, sessionExpired404, route404, unclassified];
