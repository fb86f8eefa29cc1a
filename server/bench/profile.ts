// Summarise a V8 .cpuprofile (node --cpu-prof): self and inclusive milliseconds per function,
// heaviest first. `npx tsx server/bench/profile.ts FILE.cpuprofile [--top 40] [--match name]`.
// Inclusive time counts a function once per sample even when it recurses.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: profile.ts FILE.cpuprofile [--top N] [--match substring]\n');
  process.exit(1);
}
const opt = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const top = Number(opt('top') ?? 40);
const match = opt('match');
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/work\/main\//, '').replace(/^file:\/\//, '')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  const dt = (p.timeDeltas[i] ?? 0) / 1000;
  total += dt;
  let id: number | undefined = p.samples[i]!;
  const leaf = byId.get(id)!;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
  const seen = new Set<string>();
  while (id !== undefined) {
    const l = label(byId.get(id)!);
    if (!seen.has(l)) {
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + dt);
    }
    id = parent.get(id);
  }
}
const rows = [...incl.entries()].filter(([k]) => !match || k.includes(match)).map(([k, v]) => ({ k, incl: v, self: self.get(k) ?? 0 }));
console.log(`total ${(total / 1000).toFixed(2)} s over ${p.samples.length} samples\n`);
console.log('inclusive ms | self ms | function');
for (const r of rows.sort((a, b) => b.incl - a.incl).slice(0, top)) console.log(`${r.incl.toFixed(0).padStart(12)} | ${r.self.toFixed(0).padStart(7)} | ${r.k}`);
console.log('\nself ms | function');
for (const r of rows.sort((a, b) => b.self - a.self).slice(0, top)) console.log(`${r.self.toFixed(0).padStart(7)} | ${r.k}`);
