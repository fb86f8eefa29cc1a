// Java / Kotlin stack traces: "pkg.Type: message", "\tat pkg.Class.method(File.java:10)",
// "Caused by: …", "Suppressed: …", "... N more". Needs a qualified type (or a thread label)
// so a Python "module.Error: msg" line is not taken for Java unless frames follow.
import type { BlockFolder } from '../index.ts';

const TYPE = String.raw`[a-zA-Z_$][\w$]{0,200}(?:[.$][a-zA-Z_$][\w$]{0,200}){1,30}`;
const START = new RegExp(String.raw`^(?:Exception in thread "[^"]{0,200}" )?${TYPE}(?:Exception|Error|Throwable)(?:: .{0,4000})?$`);
const CONT = /^(?:\s{1,40}at [\w$.<>/]{1,500}\(|\s{1,40}\.\.\. \d{1,9} (?:more|common frames omitted)$|\s{0,40}Caused by: |\s{1,40}Suppressed: )/;

export const javaStack: BlockFolder = {
  id: 'java-stack',
  source: 'unknown',
  level: 'error',
  maxLines: 3000,
  starts: (line) => START.test(line),
  continues: (line) => CONT.test(line),
  summary(block) {
    const causes = block.filter((l) => /^\s*Caused by: /.test(l));
    return (causes.at(-1) ?? block[0]!).trim();
  },
};
