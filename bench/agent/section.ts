import path from 'node:path';
import { AGENT_APIS, AGENT_BENCH_MESSAGES, runAgentTurns, type AgentRun } from '../../src/node/agentRun';

/**
 * The agent section: the same scripted agent chat (examples/vault; turn 1 searches, reads, lists and
 * follows backlinks, then answers; turn 2 reads one more section) on each API through the real
 * controller, LangChain clients and the local provider server, whose usage applies each provider's
 * documented cache rule. Token figures are deterministic.
 */
export async function measureAgent(root: string): Promise<AgentRun[]> {
  const vault = path.join(root, 'examples', 'vault');
  const runs: AgentRun[] = [];
  for (const api of AGENT_APIS) runs.push(await runAgentTurns(api, vault, AGENT_BENCH_MESSAGES));
  return runs;
}
