// GET /api/signals: the signal table's ids with their titles and meanings, read-only. Events and
// failures carry only ids; this is where the UI finds what each one means. `http-NNN` ids (any
// non-2xx status) are not in the table: they mean what they say.
import type { FastifyPluginAsync } from 'fastify';
import { signalTable } from '../../parsers/engine/signals.ts';
import type { SignalInfo } from '../contract/signals.ts';

export function signalList(): SignalInfo[] {
  return signalTable().signals.map((s) => ({ id: s.spec.id, title: s.spec.title, cause: s.spec.meaning.cause, outcome: s.spec.meaning.outcome }));
}

export const signalsPlugin: FastifyPluginAsync = async (app) => {
  let list: SignalInfo[] | null = null;
  // The table is loaded once per process and never changes while it runs.
  app.get('/api/signals', async (_req, reply) => {
    list ??= signalList();
    return reply.send(list);
  });
};
