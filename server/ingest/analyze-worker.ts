// The analysis of one incident, on its own thread (analyze-off-thread.ts): the triage events as
// the store read them (pages of JSON rows), parsed here, then triage/analyze. Pure: no DuckDB here.
import { parentPort, workerData } from 'node:worker_threads';
import type { Event } from '../../parsers/contract/event.ts';
import { eventsFromJson } from '../store/event-rows.ts';
import { analyze } from '../triage/analyze.ts';
import type { AnalyzeInput } from './analyze-off-thread.ts';

const input = workerData as AnalyzeInput;
const events: Event[] = [];
for (const page of input.batches) eventsFromJson(page, events);
input.batches = [];
parentPort!.postMessage(analyze({ whole: input.whole, toolPolicy: input.toolPolicy, inputs: input.inputs, fileEnds: input.fileEnds, events }));
