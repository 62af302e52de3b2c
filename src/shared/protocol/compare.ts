// Compare Models: its calls, results and events.
import { z } from 'zod';
import { Id, type Calls } from './envelope';
import { ChatDraft, type ModelBrief, type PlaygroundContext, type ReplyInfo } from './playground';

/** The ways a model of a comparison can be promoted in its Space. */
export const PromoteAction = z.enum(['benchmark', 'failover', 'only', 'weights']);
export type PromoteAction = z.infer<typeof PromoteAction>;
export const WeightName = z.enum(['cost', 'latency', 'quality']);
export type WeightName = z.infer<typeof WeightName>;
const Namespace = z.string().trim().min(1, 'choose a model').max(300);

export const CompareCalls = {
  context: z.object({}),
  space: z.object({ appId: Id }),
  /** Before a comparison: the spending limits, for all its requests together (asks, or refuses in words). */
  guard: z.object({
    bodies: z
      .array(ChatDraft.extend({ model: Namespace }))
      .min(1)
      .max(4),
  }),
  /** One column's request: the same prompt, sent to one model (streamed as `delta` events). */
  run: z.object({ body: ChatDraft.extend({ model: Namespace }) }),
  stop: z.object({ callId: z.int().min(0) }),
  /** Opens VS Code's quick pick of models to add a column. */
  pickModel: z.object({ appId: Id.nullable(), current: z.array(z.string().max(300)).max(4) }),
  /** The Space update that promoting a model would make, as a diff; nothing is saved. */
  propose: z.object({
    appId: Id,
    model: Namespace,
    action: PromoteAction,
    position: z.int().min(1).max(20).nullable(),
    toward: WeightName.nullable(),
  }),
  /** Saves a proposal shown before, as the settings editor saves. */
  promote: z.object({ proposalId: z.int().min(0) }),
  /** Writes the comparison of these runs as a markdown report in the workspace, and opens it. */
  report: z.object({ callIds: z.array(z.int().min(0)).min(1).max(4) }),
  openSettings: z.object({ appId: Id }),
} satisfies Calls;

/** What a comparison needs of its Space: who benchmarks, who fails over, who is active, the weights. */
export interface CompareSpace {
  id: string;
  name: string;
  benchmark: string | null;
  failover: string[];
  active: string[];
  weights: Record<WeightName, number>;
  canChat: boolean;
  canEdit: boolean;
}

/** A comparison to show on opening, or when a command brings new models or a prompt. */
export interface CompareStart {
  appId: string | null;
  prompt: string;
  models: string[];
}

/** A promotion as a diff: each line of the Space that would change, before and after, in words. */
export interface Proposal {
  id: number;
  title: string;
  rows: Array<{ label: string; before: string; after: string }>;
  /** What the diff cannot show (a remote service may keep its own failover order). */
  note: string | null;
}

export interface CompareResults {
  context: { spaces: PlaygroundContext['spaces']; models: ModelBrief[]; start: CompareStart | null };
  space: CompareSpace;
  guard: null;
  run: ReplyInfo;
  stop: null;
  pickModel: string | null;
  propose: Proposal;
  /** What was saved, in a sentence, and the Space as it is now. */
  promote: { message: string; space: CompareSpace };
  /** The report's path, relative to the workspace (or its title when there is no folder to write in). */
  report: string;
  openSettings: null;
}

export type CompareEvent =
  { type: 'delta'; callId: number; content: string } | { type: 'start'; start: CompareStart } | { type: 'connected' };
