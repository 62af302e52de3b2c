// The typed messages between each webview and the extension host; the only module both sides import.
//
// A webview says `ready` once its script runs, then makes calls: `{type: 'call', id, method, params}`.
// The host parses every message with the schemas below (a webview is untrusted input) and answers each
// call exactly once with `{type: 'reply', id, ok, ...}`. Between calls the host may post events.
import { z } from 'zod';
import { ChatBody, SpaceUpdateBody, type ChatMetadata, type CostBand, type Organization, type SpaceUpdateResponse, type Usage } from '../api/schemas';
import type { Rules } from './rules';
import type { ReceiptView } from './receipt';

// ---------------------------------------------------------------- envelope

export const Ready = z.object({ type: z.literal('ready') });
export const Call = z.object({ type: z.literal('call'), id: z.int().min(0), method: z.string().max(40), params: z.unknown() });
export const FromWebview = z.discriminatedUnion('type', [Ready, Call]);
export type FromWebview = z.infer<typeof FromWebview>;

/** What the user is told when a call fails; `fields` maps a body path such as `weights.cost` to its message. */
export interface CallError {
  message: string;
  fields: Record<string, string>;
  cancelled?: boolean;
}

/**
 * A schema as JSON Schema, for a webview to check fields as they are typed (src/shared/rules.ts)
 * without the schema library in its bundle. Host side only: webviews import this module's types.
 */
export const rulesOf = (schema: z.ZodType): Rules => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Rules;

export type Reply = { type: 'reply'; id: number; ok: true; result: unknown } | { type: 'reply'; id: number; ok: false; error: CallError };
export type ToWebview<E> = Reply | { type: 'event'; event: E };

/** The parameter schema of each method a webview may call. */
export type Calls = Record<string, z.ZodType>;
/** Host-side handlers: the call's parsed params and its id (streamed events name the call they belong to). */
export type Handlers<C extends Calls, R extends { [K in keyof C]: unknown }> = { [K in keyof C]: (params: z.infer<C[K]>, callId: number) => Promise<R[K]> };

const Id = z.string().min(1).max(100);
const Name = z.string().trim().min(1, 'must be 1 to 200 characters').max(200, 'must be 1 to 200 characters');

// ---------------------------------------------------------------- playground

export const ChatDraft = ChatBody.omit({ stream: true });
export type ChatDraft = z.infer<typeof ChatDraft>;
/** What a webview sends as a request body (the host parses it into a ChatDraft). */
export type ChatDraftInput = z.input<typeof ChatDraft>;
export const AttachmentKind = z.enum(['images', 'files']);

export const PlaygroundCalls = {
  context: z.object({}),
  space: z.object({ appId: Id }),
  send: z.object({ body: ChatDraft }),
  /** The cost band of the request as it would be sent now (earlier turns counted). */
  costBand: z.object({ body: ChatDraft }),
  stop: z.object({ callId: z.int().min(0) }),
  newConversation: z.object({ appId: Id, name: Name }),
  loadConversation: z.object({ appId: Id, conversationId: Id }),
  renameConversation: z.object({ appId: Id, conversationId: Id, name: Name }),
  attach: z.object({ kind: AttachmentKind }),
  attachUris: z.object({ kind: AttachmentKind, uris: z.array(z.string().max(4000)).min(1).max(20) }),
  codeAction: z.object({ action: z.enum(['copy', 'insert', 'replace']), code: z.string().max(2_000_000) }),
  /** Opens VS Code's quick pick of models (prices, context, state); answers the namespace, '' for routing, null if dismissed. */
  pickModel: z.object({ appId: Id.nullable(), current: z.string().max(300) }),
  openLink: z.object({ href: z.url({ protocol: /^https?$/, error: 'only http and https links open' }) }),
  /** Compare Models with this prompt, starting from the model chosen (if any). */
  compare: z.object({ appId: Id.nullable(), prompt: z.string().max(1_000_000), models: z.array(z.string().max(300)).max(4) }),
} satisfies Calls;

/** A catalogue model as the playground needs it: what to show, what it costs, whether it reads images. */
export interface ModelBrief {
  namespace: string;
  model: string;
  provider: string;
  vision: boolean;
  promptCost: number;
  completionCost: number;
  baseCost: number;
  byCharacters: boolean;
  contextWindow: number;
  deprecatedOn: string | null;
  /** False when nothing serves it where the service runs (no model server for it). */
  answersHere: boolean;
  tools: boolean;
}

export interface PlaygroundContext {
  spaces: Array<{ id: string; name: string }>;
  models: ModelBrief[];
  /** False on a service without the list endpoint and no Space added by id yet. */
  spacesListed: boolean;
  /** The request body's rules (ChatDraft), checked as the user types. */
  rules: Rules;
}

export interface SpaceBrief {
  id: string;
  name: string;
  activeModels: string[];
  assistants: Array<{ id: string; name: string; versions: Array<{ id: string; label: string }> }>;
  conversations: ConversationBrief[];
  canChat: boolean;
  defaults: { temperature: number | null; maxTokens: number | null };
}

export interface ConversationBrief {
  id: string;
  name: string;
}

export interface ReplyInfo {
  id: string;
  content: string;
  finishReason: string | null;
  namespace: string;
  usage: Usage;
  costs: ChatMetadata['costs'];
  savings: ChatMetadata['cost_savings'];
  latencySeconds: number;
  retries: number;
  warning: string | null;
  conversationId: string | null;
  /** Why the reply went to its model, when the service said (the built-in one does). */
  routing: ReceiptView | null;
}

export interface Turn {
  prompt: string;
  reply: ReplyInfo | null;
  error: string | null;
}

export interface Attachment {
  name: string;
  size: number;
  dataUrl: string;
}

export interface PlaygroundResults {
  context: PlaygroundContext;
  space: SpaceBrief;
  send: ReplyInfo;
  /** The service's band, or the extension's estimate (`estimated`) where the service has no route preview; null when the request could not be sent. */
  costBand: (CostBand & { estimated?: boolean }) | null;
  stop: null;
  /** null when the service cannot create conversations: replies then thread by parent request only. */
  newConversation: ConversationBrief | null;
  /** The turns that can be shown, and why others cannot (the Space's privacy level keeps no text). */
  loadConversation: { turns: Turn[]; notice: string | null };
  renameConversation: ConversationBrief;
  attach: Attachment[];
  attachUris: Attachment[];
  codeAction: null;
  pickModel: string | null;
  openLink: null;
  compare: null;
}

export type PlaygroundEvent =
  /** `at` (first piece only): when the host got it, in ms since the epoch, for the paint latency figure. */
  | { type: 'delta'; callId: number; content: string; at?: number }
  /** Text from "Send Selection to Playground" for the prompt box, and the Space to use if none is chosen. */
  | { type: 'draft'; prompt: string; appId: string | null }
  | { type: 'useSpace'; appId: string }
  /** "Open in Playground" on a model of the Models view. */
  | { type: 'useModel'; namespace: string }
  /** The service is reachable (again, or another one): read the Spaces and models afresh. */
  | { type: 'connected' };

// ---------------------------------------------------------------- compare models

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
  guard: z.object({ bodies: z.array(ChatDraft.extend({ model: Namespace })).min(1).max(4) }),
  /** One column's request: the same prompt, sent to one model (streamed as `delta` events). */
  run: z.object({ body: ChatDraft.extend({ model: Namespace }) }),
  stop: z.object({ callId: z.int().min(0) }),
  /** Opens VS Code's quick pick of models to add a column. */
  pickModel: z.object({ appId: Id.nullable(), current: z.array(z.string().max(300)).max(4) }),
  /** The Space update that promoting a model would make, as a diff; nothing is saved. */
  propose: z.object({ appId: Id, model: Namespace, action: PromoteAction, position: z.int().min(1).max(20).nullable(), toward: WeightName.nullable() }),
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

export type CompareEvent = { type: 'delta'; callId: number; content: string } | { type: 'start'; start: CompareStart } | { type: 'connected' };

// ---------------------------------------------------------------- Space settings editor

export const SpaceChanges = SpaceUpdateBody.omit({ id: true });
export type SpaceChanges = z.infer<typeof SpaceChanges>;

/**
 * Unsaved changes as the form has them, nested as the body has them. They are kept (and backed up for
 * hot exit) even while a field is not valid; saving checks them against SpaceChanges.
 */
export const SpaceDraft = z.record(z.string(), z.unknown());
export type SpaceDraft = z.infer<typeof SpaceDraft>;

export const SpaceSettingsCalls = {
  load: z.object({}),
  /** The form changed: what differs from the loaded Space now, and whether anything does. */
  edit: z.object({ dirty: z.boolean(), changes: SpaceDraft }),
  /** Save and Revert as VS Code's own commands do them (the buttons of the form). */
  save: z.object({}),
  revert: z.object({}),
  openSpace: z.object({ spaceId: Id }),
  chooseLogo: z.object({}),
} satisfies Calls;

export interface SpaceEditorData {
  view: SpaceUpdateResponse;
  /** Other Spaces, for "sandbox of". */
  spaces: Array<{ id: string; name: string }>;
  models: Array<{ id: string; namespace: string }>;
  prompts: Array<{ id: string; title: string }>;
  assistants: SpaceBrief['assistants'];
  /** Unsaved changes the document holds (after a hot exit, or the editor reopened). */
  draft: SpaceDraft | null;
  /** The rules of SpaceChanges, checked as the user types. */
  rules: Rules;
}

export interface SpaceSettingsResults {
  load: SpaceEditorData;
  edit: null;
  save: null;
  revert: null;
  openSpace: null;
  chooseLogo: string | null;
}

/** What happened to the document, however it was asked for (a button, Ctrl+S, Save All, closing). */
export type SpaceSettingsEvent =
  /** Reverted: load the Space afresh, without changes. */
  | { type: 'reload' }
  /** Saved (or, `reloaded`, the user chose the version saved elsewhere over theirs). */
  | { type: 'saved'; view: SpaceUpdateResponse; reloaded: boolean }
  | { type: 'notSaved'; error: CallError };

// ---------------------------------------------------------------- organization panel

export const IntegrationGroup = z.object({
  id: z.string().trim().min(1, 'required').max(200),
  /** Empty keeps the token the service has. */
  token: z.string().max(2000),
  endpoint: z.url({ error: 'must be a URL' }).max(2000),
});

export const OrganizationCalls = {
  load: z.object({}),
  saveIntegration: z.object({ group: z.enum(['metrics', 'logs']), value: IntegrationGroup.nullable() }),
  openLink: PlaygroundCalls.openLink,
} satisfies Calls;

/** The organization with `metrics_token` and `logs_token` masked (`••••ab12`): a secret never enters a webview. */
export type MaskedOrganization = Organization;

export interface OrganizationData {
  org: MaskedOrganization | null;
  /** Why `org` is missing, e.g. the service does not offer GET /v1/orgs/self. */
  unavailable: string | null;
  /** The rules of an integration group (id, token, endpoint), checked before sending. */
  rules: Rules;
}

export interface OrganizationResults {
  load: OrganizationData;
  saveIntegration: OrganizationData;
  openLink: null;
}

export type OrganizationEvent = { type: 'reload' };
