// Target kind for kagent Agents and SandboxAgents (kagent.dev, when kagent support is on): targets unless
// opted out; the stamp goes where kagent copies it onto the agent pods (discover/kagent.ts agentStampSite), and
// the hash covers what the agent's pods use, ModelConfigs and tools included, so it waits for the whole input.
import { agentRefs, agentStampSite } from '../discover/kagent.ts';
import { NodeReader } from '../model/nodes.ts';
import { isSafeToRead } from '../model/safety.ts';
import { KAGENT_GROUP } from './kagent-versions.ts';
import type { TargetKind } from './kind.ts';
import { newTarget } from '../model/target.ts';

/** The kagent kinds whose pods an Agent stamp rolls (a rendered Deployment names its Agent as one of them). */
export const AGENT_KINDS: readonly string[] = ['Agent', 'SandboxAgent'];

export const kagentAgents: TargetKind = {
  mode: 'agent',
  hash: 'dependencies',
  local: false,
  select: {
    matches: (obj, config) => config.kagent === 'enabled' && obj.group === KAGENT_GROUP && AGENT_KINDS.includes(obj.kind),
    byDefault: () => true,
    read(obj, results) {
      if (!isSafeToRead(obj, results)) return undefined;
      const site = agentStampSite(obj, new NodeReader(obj.subject, results));
      return site ? newTarget(obj, 'agent', site) : undefined;
    },
  },
  dependencies: (target, reader, inventory) => agentRefs(target.obj, reader, inventory),
};
