// A log format as data (lnav's model): one JSON file per format in parsers/formats/.
// The engine (parsers/engine/) compiles and applies it; its samples prove it on load.
import { z } from 'zod';
import { Level, MappableField, Source } from './event.ts';

/** Where a field's value comes from: a named capture (regex formats) or a key path (JSON formats, dots for nesting). */
const FieldRef = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const RegexMatch = z
  .object({
    kind: z.literal('regex'),
    /** JavaScript regexes with named captures, tried in order; the first that matches wins. Anchor them (^). */
    patterns: z.array(z.string().min(1)).min(1),
  })
  .strict();

const JsonMatch = z
  .object({
    kind: z.literal('json'),
    /** Every group must have at least one of its keys present in the object (e.g. [["msg","message"],["level"]]). */
    require: z.array(z.array(z.string().min(1)).min(1)).default([]),
    /** Optional: a literal prefix before the JSON object on the line (a regex; the object starts where it ends). */
    prefix: z.string().optional(),
  })
  .strict();

const LogfmtMatch = z
  .object({
    kind: z.literal('logfmt'),
    /** Every group must have at least one of its keys among the line's pairs (e.g. [["msg","at"],["level","lvl"]]). */
    require: z.array(z.array(z.string().min(1)).min(1)).default([]),
    /** The fewest `key=value` pairs a line must hold (a prose line with one `x=y` in it is not logfmt). */
    minPairs: z.number().int().min(1).default(3),
  })
  .strict();

export const FormatSample = z
  .object({
    line: z.string(),
    /** Event fields the engine must produce for this line (a subset; omitted fields, and attrs keys not listed, are not checked). */
    expect: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export const FormatSpec = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    title: z.string().min(1),
    description: z.string().optional(),
    /** Which side usually writes this format; detection can refine it per file. */
    source: Source,
    /**
     * Sample lines that let `source` stand, for a format whose line shape other programs print too
     * (uvicorn's `INFO:     msg` is any Python tool's `LEVEL: msg`): the file is the format's side only
     * when one of its sample lines matches one of these; otherwise its content and name decide.
     */
    sourceWhen: z.array(z.string().min(1)).optional(),
    /** Higher wins ties between formats that match the same share of lines (specific beats generic). */
    priority: z.number().int().default(0),
    match: z.discriminatedUnion('kind', [RegexMatch, JsonMatch, LogfmtMatch]),
    /** Event field → capture name or JSON key path(s), first present wins. */
    fields: z.partialRecord(MappableField, FieldRef).default({}),
    /** Multiply a numeric field after reading it (e.g. nginx $request_time is seconds: {"durationMs": 1000}). */
    scale: z.partialRecord(MappableField, z.number()).default({}),
    /**
     * JSON formats: the key of a message template (Serilog's CLEF `@mt`: `MCP {Method} id={RpcId} failed`) the
     * message is rendered from, with the record's own properties, when no message field is present.
     */
    messageTemplate: z.string().min(1).optional(),
    /** Extra captures/keys kept as attrs; `name=ref` keeps one under another name (`agent=ClientRequestUserAgent`). */
    attrs: z.array(z.string()).default([]),
    /** Level spelled in the log → our level. Case-insensitive. Unlisted spellings are guessed. */
    levels: z.partialRecord(Level, z.array(z.string())).default({}),
    /**
     * A line of this format that logs no level may take one from its wording (`failed`, `refused`,
     * `Retrying` → attrs.levelFrom = 'wording'). False for lines that are not log statements
     * (shell commands: `$ grep error app.log` is not an error).
     */
    levelFromWording: z.boolean().default(true),
    /**
     * Every indented line under a line of this format belongs to it, even one another format would
     * read (pino-pretty prints a record's fields, an `err` object and its stack indented under the header).
     */
    indentedContinues: z.boolean().default(false),
    /**
     * This format's records are themselves indented (npm debug's terminal output: `  ns message +3ms`): an
     * indented line it reads starts a record of its own instead of continuing the line above, whatever
     * formats the file was seen to hold.
     */
    indentedRecords: z.boolean().default(false),
    /** Block folders (parsers/special) whose continuation lines may follow a line of this format. */
    multiline: z.array(z.string()).default([]),
    samples: z.array(FormatSample).min(1, 'every format carries at least one sample line that a test checks'),
  })
  .strict();
export type FormatSpec = z.infer<typeof FormatSpec>;
export type FormatSpecInput = z.input<typeof FormatSpec>;
