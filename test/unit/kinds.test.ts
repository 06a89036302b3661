// The target kinds registry: one kind per target mode, each with the members its hash rule needs, and the
// generic selecting and hashing stages naming no kind (a new kind is a module in function/kinds/, not a branch).
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { kindOf, LINKED_KINDS, TARGET_KINDS, unitKindFor } from '../../function/kinds/index.ts';
import type { TargetMode } from '../../function/model/target.ts';

const MODES: readonly TargetMode[] = ['workload', 'agent', 'model-config', 'agent-deployment', 'workload-ref'];
const ROOT = new URL('../../', import.meta.url);
/** A file's code without its comment lines. */
const codeOf = (file: string): string =>
  readFileSync(new URL(file, ROOT), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
    .join('\n');

test('every target mode has exactly one kind, found by its mode', () => {
  assert.equal(TARGET_KINDS.map((k) => k.mode).sort(), [...MODES].sort());
  for (const mode of MODES) assert.is(kindOf(mode).mode, mode);
});

test("each kind has what its hash rule needs; carried kinds, and kinds whose targets ask for objects, are linked, not selected", () => {
  for (const kind of TARGET_KINDS) {
    const where = `kind ${kind.mode}`;
    assert.is(kind.dependencies !== undefined, kind.hash === 'dependencies', `${where}: dependencies`);
    assert.is(kind.unitRefs !== undefined && kind.unitKind !== undefined, kind.hash === 'unit', `${where}: unitRefs`);
    const linked = kind.hash === 'carried' || kind.linkId !== undefined;
    assert.is(kind.link !== undefined && kind.candidate !== undefined, linked, `${where}: link`);
    assert.is(kind.select === undefined, linked, `${where}: select`);
  }
  assert.equal(LINKED_KINDS.map((k) => k.mode), ['agent-deployment', 'workload-ref']);
  assert.is(unitKindFor('ModelConfig')?.mode, 'model-config');
  assert.is(unitKindFor('RemoteMCPServer'), undefined);
});

test('selecting and hashing targets name no kind and no kagent specifics', () => {
  for (const file of ['function/plan/targets.ts', 'function/plan/plan.ts', 'function/hash/targets.ts']) {
    const code = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
      .join('\n');
    for (const name of ["'workload'", "'agent'", "'model-config'", "'agent-deployment'", "'ModelConfig'", "'Agent'", 'agentStampSite', 'modelConfigRefs', 'kagent-versions']) {
      assert.not.ok(code.includes(name), `${file} names ${name}`);
    }
  }
});

test('a target mode is an open name owned by its kind module: the model lists none, the registry is the only list (#25)', () => {
  for (const file of ['function/model/target.ts', 'function/model/plan.ts', 'function/kinds/kind.ts']) {
    for (const mode of MODES) assert.not.ok(codeOf(file).includes(`'${mode}'`), `${file} names the mode ${mode}`);
  }
  // Each mode is spelled in its own kind module only (and, for linking, read from that module's kind).
  for (const mode of MODES) {
    const owners = TARGET_KINDS.filter((k) => k.mode === mode);
    assert.is(owners.length, 1, mode);
  }
});

test('generic plan and hash fields carry no kagent names (#25)', () => {
  for (const file of ['function/model/plan.ts', 'function/model/target.ts', 'function/hash/targets.ts', 'function/plan/plan.ts', 'function/run/apply.ts']) {
    for (const name of ['modelConfigs', 'modelConfigPlans', 'ModelConfigPlan', 'agents:', '.agent', 'agent?:', 'AgentRefs']) {
      assert.not.ok(codeOf(file).includes(name), `${file} names ${name}`);
    }
  }
});

test.run();
