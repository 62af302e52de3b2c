// Anthropic's system messages in the course of a conversation, as the model reads them. The tools they
// add and withdraw (`tool_addition`, `tool_removal` blocks, which a message thread sends to change its
// tools) make the tools the model is offered; the text of one shown until the next user message only
// (`clear_at`) is left out once one follows; the effort of one in the turn being answered (after the
// last user message) is the reply's. What remains of each is its text, which the model reads where it
// stands: every provider's model is offered the tools as changed, none needs Anthropic's beta for it.
import type { AnthropicPlainBody, AnthropicTool } from '../../api/schemas';
import { Problem } from '../problem';

type Given = AnthropicPlainBody;
type Tool = AnthropicTool;
type SystemMessage = Extract<Given['messages'][number], { role: 'system' }>;
type Block = Exclude<NonNullable<SystemMessage['content']>, string>[number];

/** A tool change that cannot be made, with the `error_code` Anthropic's clients read. */
const changeProblem = (code: 'tool_name_conflict' | 'tool_reference_unresolved', message: string) =>
  new Problem(400, message, {}, { error_code: code });

/** Moves the tool named from one map to the other: whether there was one to move. */
function moved(from: Map<string, Tool>, to: Map<string, Tool>, name: string): boolean {
  const tool = from.get(name);
  if (!tool) return false;
  from.delete(name);
  to.set(name, tool);
  return true;
}

/**
 * The request as its model reads it: its tools as its system messages changed them, its effort as the
 * turn's system message gives it, and each system message's text alone (none when it is cleared), in
 * its place, so every message keeps its index for what is said of it.
 */
export function systemMessagesRead(body: Given): Given {
  if (!body.messages.some((m) => m.role === 'system')) return body;
  const lastUser = body.messages.findLastIndex((m) => m.role === 'user');
  const offered = new Map((body.tools ?? []).map((t) => [t.name, t]));
  const withdrawn = new Map<string, Tool>();
  let effort = body.output_config?.effort;
  const messages = body.messages.map((m, i) => {
    if (m.role !== 'system') return m;
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    for (const [j, b] of blocks.entries()) if (b.type !== 'text') change(b, `messages.${i}.content.${j}`);
    if (i > lastUser && m.output_config?.effort) effort = m.output_config.effort;
    const cleared = m.clear_at === 'next_user_message' && i < lastUser;
    return { role: 'system' as const, content: cleared ? [] : blocks.filter((b) => b.type === 'text') };
  });

  function change(b: Exclude<Block, { type: 'text' }>, at: string): void {
    const name = b.tool.type === 'tool_definition' ? b.tool.definition.name : b.tool.name;
    if (b.type === 'tool_removal') {
      if (!moved(offered, withdrawn, name) && !withdrawn.has(name))
        throw changeProblem(
          'tool_reference_unresolved',
          `${at} withdraws ${name}, but no tool is named ${name} at that point of the conversation`,
        );
    } else if (b.tool.type === 'tool_definition') {
      if (offered.has(name))
        throw changeProblem(
          'tool_name_conflict',
          `${at} adds a tool named ${name}, and the model is offered one of that name already: withdraw it first (tool_removal), or give the new one another name`,
        );
      withdrawn.delete(name);
      offered.set(name, b.tool.definition);
    } else if (!moved(withdrawn, offered, name) && !offered.has(name))
      throw changeProblem(
        'tool_reference_unresolved',
        `${at} adds ${name} back, but no tool was named ${name} before that point of the conversation: define it there (a tool_definition)`,
      );
  }

  const tools = [...offered.values()];
  return {
    ...body,
    messages,
    tools: body.tools || tools.length ? tools : undefined,
    output_config: effort === body.output_config?.effort ? body.output_config : { ...body.output_config, effort },
  };
}
