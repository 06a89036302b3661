// The read-back check (#21): a document a stamp edit changed must read again as YAML before anything is
// written; one that does not is an internal error, never output.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertReadsBack } from '../../function/write/read-back.ts';
import { streamDocuments } from '../../function/read/stream-documents.ts';
import { serializeStream } from '../../function/write/stream.ts';

const DOC = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    rollstamp.dev/hash: old\n    note: x\n';

test('an edited document that reads back passes, in the subset and outside it (#21)', () => {
  assertReadsBack(DOC);
  assertReadsBack(`%YAML 1.2\n---\n${DOC}`); // the subset reader declines a directive; the library reads it
});

test('a stamp line that swallowed the next key does not read back: an internal error (#21)', () => {
  const broken = DOC.replace('old\n    note', '"sha256:x"    note');
  assert.throws(() => assertReadsBack(broken), /does not read back as YAML/);
});

test('serializeStream refuses an edit that breaks its document instead of returning it (#21)', () => {
  const [doc] = [...streamDocuments(DOC, 'in.yaml')];
  assert.ok(doc, 'read');
  doc!.firstItem = 0;
  doc!.itemCount = 1;
  const at = DOC.indexOf('old\n');
  // An edit as the old planner made it for a block scalar: the line break goes with the value.
  assert.throws(() => serializeStream([doc!], new Map([[0, { offset: at, remove: 4, insert: '"sha256:x"' }]])), /does not read back/);
  const fine = serializeStream([doc!], new Map([[0, { offset: at, remove: 3, insert: '"sha256:x"' }]]));
  assert.ok(fine?.includes('rollstamp.dev/hash: "sha256:x"\n    note: x\n'), fine);
});

test.run();
