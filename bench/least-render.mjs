// The least a render of rollstamp's does, in node: what every `stamp -` or `fn` must do whatever reads and
// plans it, and nothing else. Standard input is read through the stream's events, not readFileSync(0) as the
// floor reads it, because a render must answer SIGTERM while it waits for its input (docs/performance.md, "One
// render"); the input is digested once with node:crypto's SHA-256, as every render with a target digests its
// sources; and it is written back. bench/render.ts and bench/snapshot.ts count it beside the floor, so the room a
// per-render target leaves rollstamp's own code is printed, not assumed.
import { createHash } from 'node:crypto';

const chunks = [];
process.on('SIGTERM', () => process.exit(143));
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const text = Buffer.concat(chunks).toString('utf8');
  const digest = createHash('sha256').update(text).digest('hex');
  // The digest is used, so no engine can leave it out; the input goes back unchanged after one comment line.
  process.stdout.write(`# ${digest.length}\n${text}`);
});
