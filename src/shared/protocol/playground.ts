// The playground's calls, results and events.
import { z } from 'zod';
import { ChatBody, type ChatMetadata, type CostBand, type Usage } from '../../api/schemas';
import type { CitedPage } from '../citedPages';
import type { ReceiptView } from '../receipt';
import type { Rules } from '../rules';
import { Id, Name, type Calls } from './envelope';

export const ChatDraft = ChatBody.omit({ stream: true });
export type ChatDraft = z.infer<typeof ChatDraft>;
/** What a webview sends as a request body (the host parses it into a ChatDraft). */
export type ChatDraftInput = z.input<typeof ChatDraft>;
export const AttachmentKind = z.enum(['images', 'files']);

export const PlaygroundCalls = {
  context: z.object({}),
  space: z.object({ appId: Id }),
  /**
   * `newConversation`: the name of a conversation to make for this send, made only once the send may go
   * (past the spending limits' question) and the service would take it as it is, so a send that does not
   * go leaves no empty conversation.
   */
  send: z.object({ body: ChatDraft, newConversation: Name.optional() }),
  /** The cost band of the request as it would be sent now (earlier turns counted). */
  costBand: z.object({ body: ChatDraft }),
  stop: z.object({ callId: z.int().min(0) }),
  loadConversation: z.object({ appId: Id, conversationId: Id }),
  renameConversation: z.object({ appId: Id, conversationId: Id, name: Name }),
  attach: z.object({ kind: AttachmentKind }),
  attachUris: z.object({ kind: AttachmentKind, uris: z.array(z.string().max(4000)).min(1).max(20) }),
  codeAction: z.object({ action: z.enum(['copy', 'insert', 'replace']), code: z.string().max(2_000_000) }),
  /** Opens VS Code's quick pick of models (prices, context, state); answers the namespace, '' for routing, null if dismissed. */
  pickModel: z.object({ appId: Id.nullable(), current: z.string().max(300) }),
  openLink: z.object({ href: z.url({ protocol: /^https?$/, error: 'only http and https links open' }) }),
  /** Compare Models with this prompt, starting from the model chosen (if any). */
  compare: z.object({
    appId: Id.nullable(),
    prompt: z.string().max(1_000_000),
    models: z.array(z.string().max(300)).max(4),
  }),
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
  /** Its `deprecatedOn` has come: it is no longer served (decided by the host, whose day the service keeps). */
  retired: boolean;
  /** False when nothing serves it where the service runs (no key or model server for it). */
  answersHere: boolean;
  /** Its provider has a key but does not list it for that key (retired, or not open to the account). */
  notOffered: boolean;
  /** Why its provider's key cannot reach it, in words, where the service says (its kind of key). */
  notOfferedWhy?: string;
  tools: boolean;
}

export interface PlaygroundContext {
  spaces: Array<{ id: string; name: string }>;
  models: ModelBrief[];
  /** False on a service without the list endpoint and no Space added by id yet. */
  spacesListed: boolean;
  /** The request body's rules (ChatDraft), checked as the user types. */
  rules: Rules;
  /** The service searches the web when asked (the built-in service's web_search plugin). */
  webSearch: boolean;
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
  /** The pages the reply cites (those its web search found), once each, in the order first cited. */
  sources?: CitedPage[];
  /**
   * Google's Search Suggestions for a Gemini model's grounded reply (HTML and its styles, as Google
   * gives them), which Google asks to be shown with the reply; the page shows them apart from its own.
   */
  searchSuggestions?: string;
}

export interface Turn {
  prompt: string;
  /** The names of the images and files sent with the prompt (kept in the panel only, not by the service). */
  attached?: string[];
  reply: ReplyInfo | null;
  error: string | null;
  /** The model's reasoning shown before the reply, and how long it thought (not kept by the service). */
  thought?: Thought;
}

export interface Thought {
  text: string;
  seconds: number;
}

export interface Attachment {
  name: string;
  size: number;
  dataUrl: string;
}

/**
 * The service's band, or the extension's estimate (`estimated`) where the service has no route preview;
 * null when neither can tell. `refused`: why the service would refuse the request as it is, in words;
 * `refusedFile`: the attachment it is about, by its place among the draft's images then files.
 */
export interface BandAnswer {
  band: (CostBand & { estimated?: boolean }) | null;
  refused?: string;
  refusedFile?: number;
}

export interface PlaygroundResults {
  context: PlaygroundContext;
  space: SpaceBrief;
  send: ReplyInfo;
  costBand: BandAnswer;
  stop: null;
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
  /** A piece of the model's reasoning, before its reply's text. */
  | { type: 'thinking'; callId: number; content: string }
  /**
   * Where a send stands before its first piece: the user is being asked whether to pass the soft
   * spending limit, or (after that) it went to the service.
   */
  | { type: 'stage'; callId: number; stage: 'asking' | 'sent' }
  /**
   * The conversation made for a send that asked for one, before the send goes to the service (none is
   * made by a service without conversations: replies then thread by parent request only).
   */
  | { type: 'conversation'; callId: number; appId: string; conversation: ConversationBrief }
  /** Text from "Send Selection to Playground" for the prompt box, and the Space to use if none is chosen. */
  | { type: 'draft'; prompt: string; appId: string | null }
  | { type: 'useSpace'; appId: string }
  /** A conversation opened from the Spaces view: its Space, then its turns. */
  | { type: 'useConversation'; appId: string; conversation: { id: string; name: string } }
  /** "Open in Playground" on a model of the Models view. */
  | { type: 'useModel'; namespace: string }
  /** The service is reachable (again, or another one): read the Spaces and models afresh. */
  | { type: 'connected' }
  /** The catalogue was read again (a provider's key added or removed): which models answer here moved. */
  | { type: 'models'; models: ModelBrief[] };
