// zod schemas of every record and request body of the /v1 interface
// (shared/spec/service-interface.md, completed by shared/spec/conventions.md).
// Records are loose objects: unknown fields of a newer service are kept, never rejected.
// Request bodies strip unknown fields, as the hosted service does.
import { z } from 'zod';
import type { CitedPage } from '../shared/citedPages';
import { PROMPT_DESCRIPTION_MAX, PROMPT_TITLE_MAX } from './limits';
import { leaveOut, type LeftOut } from './leftOut';

export { collectLeftOut, unreadableIn, type LeftOut } from './leftOut';

/** A uuid-shaped string (8-4-4-4-12 hex); the hosted service does not promise RFC versions. */
export const Uuid = z.guid({ error: 'must be a uuid' });
/**
 * A uuid in a request (body or path): hex digits match case-insensitively, so what is parsed is lower
 * case. Records keep the plain schema; lower-casing every id of a long answer cost the client time.
 */
export const UuidInput = Uuid.overwrite((id) => id.toLowerCase());
const Timestamp = z.string();
const nullish = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** A field a view can do without: absent or null reads as its documented default. */
// Absent or null reads as the fallback; a value of the wrong type still makes the record unreadable.
// (A union with a null branch and a default costs half of a transform on every value: lists are long.)
const orDefault = <T extends z.ZodType>(schema: T, fallback: z.output<T>) =>
  z.union([schema, z.null().transform((): z.output<T> => fallback)]).default(fallback as never);
const flag = () => orDefault(z.boolean(), false);
const price = () => orDefault(z.number(), 0);
const words = () => orDefault(z.string(), '');
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().default(null as never);

export const issueField = (issue: z.core.$ZodIssue | undefined) =>
  issue
    ? issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    : '';

/**
 * A list of records read tolerantly (conventions.md): one record that cannot be read is left out,
 * counted (`unreadableIn`) and reported to the parse's collector; the rest of the list is kept.
 */
export function records<T extends z.ZodType>(schema: T) {
  const whole = z.array(schema);
  return z.unknown().transform((items, ctx) => {
    if (!Array.isArray(items)) {
      ctx.addIssue({ code: 'custom', message: 'must be a list', input: items });
      return z.NEVER;
    }
    // Most answers are read whole in one pass; only a list with a bad record is read record by record.
    const all = whole.safeParse(items);
    if (all.success) return all.data;
    const kept: z.output<T>[] = [];
    const leftOut: LeftOut[] = [];
    items.forEach((item, index) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) return void kept.push(parsed.data);
      const issue = parsed.error.issues[0];
      leftOut.push({ index, field: issueField(issue), message: issue?.message ?? 'is invalid' });
    });
    leaveOut(kept, items.length - kept.length, leftOut);
    return kept;
  });
}

// ---------------------------------------------------------------- records (section 2)

export const Weights = z.looseObject({
  cost: z.number(),
  latency: z.number(),
  quality: z.number(),
});

export const Policies = z.looseObject({
  privacy_level: nullish(z.int()),
  max_cost: nullish(z.number()),
  max_switch_model_retries: nullish(z.int()),
  max_same_model_retries: nullish(z.int()),
  optimize_internal_requests: nullish(z.int()),
  prompt_id: nullish(Uuid),
});

export const SpaceSettings = z.looseObject({
  assistant_id: nullish(Uuid),
  assistant_version_id: nullish(Uuid),
  instructions: nullish(z.string()),
  max_tokens: nullish(z.int()),
  temperature: nullish(z.number()),
});

export const PriceUnit = z.enum(['tokens', 'characters']);

const modelRecordShape = {
  supports_functions: flag(),
  supports_json: flag(),
  supports_n: flag(),
  supports_penalties: flag(),
  supports_stream: flag(),
  supports_vision: flag(),
  /**
   * Whether the model reasons before it answers (it takes a reasoning effort); absent where nobody
   * says (the hosted service, most model servers). The built-in service sends an effort to no model
   * that does not reason: OpenAI and Ollama refuse one with a 400.
   */
  supports_reasoning: nullish(z.boolean()),
  completion_token_cost: price(),
  prompt_token_cost: price(),
  /** Per token of the prompt read from the provider's cache; absent: the prompt's price. */
  cache_read_token_cost: nullish(z.number().min(0)),
  /** Per token of the prompt written to the provider's cache (for 5 minutes, at Anthropic); absent: the prompt's price. */
  cache_write_token_cost: nullish(z.number().min(0)),
  /** Per token of the prompt written to the provider's cache for an hour (Anthropic's); absent: the price above. */
  cache_write_1h_token_cost: nullish(z.number().min(0)),
  /** Per web search the model runs at its provider (Anthropic's, OpenAI's), beside its tokens; absent: none known. */
  web_search_cost: nullish(z.number().min(0)),
  /**
   * The built-in service's: a longer prompt's prices, lowest first. A request whose prompt has more than
   * `above` tokens is billed whole at the prices given (the others as listed). Absent: one price.
   */
  long_prompt_prices: nullish(
    z
      .array(
        z.object({
          above: z.int().min(0),
          prompt_token_cost: nullish(z.number().min(0)),
          completion_token_cost: nullish(z.number().min(0)),
          cache_read_token_cost: nullish(z.number().min(0)),
          cache_write_token_cost: nullish(z.number().min(0)),
          cache_write_1h_token_cost: nullish(z.number().min(0)),
        }),
      )
      .max(10),
  ).catch(undefined),
  base_cost: price(),
  /** An unit this client does not know is priced as tokens. */
  price_unit: PriceUnit.catch('tokens').default('tokens'),
  model: z.string(),
  namespace: z.string().min(1),
  /** 0 when the service does not say. */
  context_window: orDefault(z.int(), 0),
  until: maybe(z.string()),
  description: words(),
  url: words(),
  is_rag: flag(),
  is_ft: flag(),
  is_open_source: flag(),
  is_gdpr: flag(),
  is_chat: orDefault(z.boolean(), true),
  id: maybe(z.string()),
  app_id: maybe(z.string()),
  org_id: maybe(z.string()),
  added_by: maybe(z.string()),
  added_on: maybe(z.string()),
  modified_on: maybe(z.string()),
  is_public: orDefault(z.boolean(), true),
  is_test_model: flag(),
  is_service_owner: flag(),
  default_active: flag(),
  provider: nullish(z.string()),
  owner: nullish(z.string()),
  at: nullish(z.string()),
  api_target: words(),
  deprecated_on: nullish(z.string()),
  parent_id: nullish(z.string()),
  prompt_id: nullish(z.string()),
  /** The built-in service says whether a model can answer there (absent: it can, as on the hosted one). */
  answers_here: nullish(z.boolean()),
  /** Who answers for it there, for people ("Ollama (port 11434)"). */
  served_by: nullish(z.string()),
  /** False where the provider has a key but does not list the model for it (retired, or not open to the account). */
  offered_to_key: nullish(z.boolean()).catch(undefined),
  /** Why the key cannot reach the model, in words, where its kind says (Claude on Vertex AI with an API key). */
  not_offered_because: nullish(z.string()).catch(undefined),
};

export interface ModelRecord extends z.infer<z.ZodObject<typeof modelRecordShape>> {
  parent?: ModelRecord | null;
  [extra: string]: unknown;
}

export const ModelRecord: z.ZodType<ModelRecord> = z.looseObject({
  ...modelRecordShape,
  get parent() {
    return nullish(ModelRecord);
  },
});

export const PromptRecord = z.looseObject({
  prompt: words(),
  title: z.string(),
  description: words(),
  added_on: words(),
  modified_on: words(),
  org_id: words(),
  tokens: orDefault(z.int(), 0),
  published_on: maybe(z.string()),
  reviewed_on: maybe(z.string()),
  approved_on: maybe(z.string()),
  id: z.string().min(1),
  decline_reason: nullish(z.string()),
});

export const Space = z.looseObject({
  id: Uuid,
  identity_id: nullish(z.string()),
  modified_by: nullish(z.string()),
  org_id: nullish(Uuid),
  prompt_id: nullish(Uuid),
  hashed_key: nullish(z.string()),
  key_end: nullish(z.string()),
  name: nullish(z.string()),
  description: nullish(z.string()),
  app_logo: nullish(z.string()),
  is_active: nullish(z.boolean()),
  rate_limit: nullish(z.int()),
  has_failover_chain: nullish(z.boolean()),
  weights: nullish(Weights),
  policies: nullish(Policies),
  settings: nullish(SpaceSettings),
  sandbox_of: nullish(Uuid),
  use_parent_custom_data: nullish(z.boolean()),
  benchmark_model_id: nullish(Uuid),
  benchmark_model: nullish(ModelRecord),
  prompt: nullish(PromptRecord),
  added_on: nullish(Timestamp),
  modified_on: nullish(Timestamp),
});

export const ModelSetting = z.looseObject({
  model: z.string(),
  provider: nullish(z.string()),
  owner: nullish(z.string()),
  namespace: z.string().min(1),
  at: nullish(z.string()),
  context_window: orDefault(z.int(), 0),
  until: maybe(z.string()),
  description: words(),
  url: words(),
  api_target: words(),
  deprecated_on: nullish(z.string()),
  parent_id: nullish(z.string()),
  parent: nullish(ModelRecord),
  prompt_id: nullish(Uuid),
  id: Uuid,
  active: flag(),
  globally_disabled: flag(),
  /** The built-in service says whether a model can answer there (absent: it can, as on the hosted one). */
  answers_here: nullish(z.boolean()),
  /** Who answers for it there, for people ("Ollama (port 11434)"). */
  served_by: nullish(z.string()),
  offered_to_key: nullish(z.boolean()).catch(undefined),
  not_offered_because: nullish(z.string()).catch(undefined),
});

export const Permission = z.enum(['view', 'edit', 'delete', 'manage_keys', 'use_playground']);

export const SpaceDetail = z.looseObject({
  app: Space,
  active_models: orDefault(z.int(), 0),
  base_model_settings: records(ModelSetting),
  custom_model_settings: records(ModelSetting),
  failover_models: records(ModelRecord),
  /** The set of values is open on the hosted service: unknown names are kept as strings. */
  current_user_permissions: orDefault(z.array(z.string()), []),
});

export const SandboxStatus = z.string();

export const SpaceUpdateResponse = z.looseObject({
  main: SpaceDetail,
  sandbox: SpaceDetail.nullable(),
  sandbox_status: SandboxStatus.nullable(),
});

export const ConversationSettings = z.looseObject({
  assistant_id: nullish(Uuid),
  assistant_version_id: nullish(Uuid),
});

export const Conversation = z.looseObject({
  id: Uuid,
  name: words(),
  deleted_on: maybe(Timestamp),
  settings: maybe(ConversationSettings),
  added_on: Timestamp.optional(),
  modified_on: Timestamp.optional(),
});

export const AssistantVersion = z.looseObject({
  id: Uuid,
  assistant_id: Uuid,
  published: flag(),
  identity_id: maybe(z.string()),
  added_on: words(),
  modified_on: words(),
  persona: nullish(z.string()),
  instructions: nullish(z.string()),
  greeting: nullish(z.string()),
  writing_style: nullish(z.string()),
  sample_interactions: nullish(z.string()),
  model_id: nullish(Uuid),
  temperature: nullish(z.number()),
  max_tokens: nullish(z.int()),
});

export const PauseInvoice = z.looseObject({
  invoice_id: z.string(),
  invoice_number: z.string(),
  amount: z.int(),
  timestamp: z.int(),
  pause_reason: z.string(),
  invoice_name: z.string(),
  payment_link: z.string(),
  severity: z.int(),
});

export const SubscriptionPauseReason = z.looseObject({ invoices: z.array(PauseInvoice) });

/**
 * When an alert e-mail was sent: an ISO 8601 timestamp (conventions.md, corrections). Services that
 * sent epoch seconds (this one up to 0.1.0) are read too, as the same instant in ISO form.
 */
const AlertStamp = nullish(
  z.union([z.string(), z.number().transform((seconds) => new Date(seconds * 1000).toISOString())]),
);
export const AlertEmails = z.looseObject({
  soft_limit: AlertStamp,
  hard_limit: AlertStamp,
  payment_failed: AlertStamp,
  usage_reset: AlertStamp,
  usage_50: AlertStamp,
  usage_80: AlertStamp,
  usage_90: AlertStamp,
  usage_100: AlertStamp,
});

/**
 * The subscription fields are enumerations on the interface (INTERNAL, FREE, PRO, ...; _TRIAL_,
 * STARTUP, ...; active, unpaid; monthly, yearly). They are read as text: a value added by the service
 * later must not make the organization unreadable.
 */
const EnumText = z.string();

const emptyString = () => z.string().nullable().default('');

export const Organization = z.looseObject({
  org_payment_id: words(),
  last_invoice_date: orDefault(z.number(), 0),
  org_name: words(),
  org_creator: words(),
  id: Uuid,
  prompt_tokens: z.int().default(0),
  completion_tokens: z.int().default(0),
  total_tokens: z.int().default(0),
  prompt_tokens_cost: z.number().default(0),
  completion_tokens_cost: z.number().default(0),
  total_tokens_cost: z.number().default(0),
  prompt_tokens_cost_savings: z.number().default(0),
  completion_tokens_cost_savings: z.number().default(0),
  total_tokens_cost_savings: z.number().default(0),
  num_requests: z.int().default(0),
  num_apps: z.int().default(0),
  spaces_subscription_tier: nullish(EnumText),
  spaces_subscription_seats: nullish(z.int()),
  spaces_subscription_status: nullish(EnumText),
  spaces_subscription_cancel_at: nullish(z.number()),
  subscription_pause_reason: nullish(SubscriptionPauseReason).catch(null),
  subscription_cycle: nullish(EnumText),
  subscription_tier: nullish(EnumText),
  subscription_price_id: nullish(z.string()),
  trial_end: nullish(z.number()),
  currency: orDefault(z.string(), 'usd'),
  billing_email: emptyString(),
  free_balance: z.number().nullable().default(0),
  spending_limit_soft: z.number().nullable().default(0),
  spending_limit_hard: z.number().nullable().default(0),
  alert_emails: nullish(AlertEmails),
  is_active: z.boolean().default(true),
  is_personal: z.boolean().default(false),
  org_display_name: nullish(z.string()),
  org_logo: z.string().optional(),
  address_1: emptyString(),
  address_2: emptyString(),
  address_city: emptyString(),
  address_zip: emptyString(),
  address_state: emptyString(),
  address_country: emptyString(),
  added_on: nullish(Timestamp),
  modified_on: nullish(Timestamp),
  crm_id: nullish(z.string()),
  metrics_id: nullish(z.string()),
  metrics_token: nullish(z.string()),
  metrics_endpoint: nullish(z.string()),
  logs_id: nullish(z.string()),
  logs_token: nullish(z.string()),
  logs_endpoint: nullish(z.string()),
  rate_limit: z.int().default(200),
});

// ---------------------------------------------------------------- request bodies (section 4)

export { PROMPT_DESCRIPTION_MAX, PROMPT_TITLE_MAX };
/**
 * Text of `min` to `max` characters counted in code points, as a person counts them: an emoji or a
 * character outside the Basic Multilingual Plane is one character, not two UTF-16 units.
 */
export function text(min: number, max: number) {
  const message = min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`;
  return (
    z
      .string()
      .superRefine((value, ctx) => {
        const n = [...value].length;
        if (n < min)
          ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: value, message });
        else if (n > max)
          ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value, message });
      })
      // The bounds in the JSON Schema too, so the webviews check them as the user types (shared/rules.ts).
      .meta({ ...(min > 0 ? { minLength: min } : {}), maxLength: max })
  );
}
export const PromptTitle = text(1, PROMPT_TITLE_MAX);
export const PromptDescription = text(1, PROMPT_DESCRIPTION_MAX);
export const Temperature = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
export const MaxTokens = z.int().min(1, 'must be at least 1');

/**
 * The messages (or items) of one request to the vendors' surfaces: an agent's session of hundreds of
 * tool calls runs past a thousand. Anthropic's own limit; the body's size bounds it first.
 */
const CONVERSATION_TURNS = 100_000;

/**
 * OpenAI's reasoning efforts, as its current models take them (`none` for GPT-5.1 and later, `xhigh`
 * for the largest). The AI SDK fits the one asked to what the chosen model supports.
 */
const ReasoningEffort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

/** Routing weights are relative: non-negative, and not all zero once merged (checked by the service). */
const Weight = z.number().min(0, 'must be 0 or more').max(1_000_000);

export const SpaceUpdateBody = z.object({
  id: UuidInput,
  sandbox_of: nullish(UuidInput),
  use_parent_custom_data: nullish(z.boolean()),
  benchmark_model_id: nullish(UuidInput),
  name: nullish(text(1, 120)),
  description: nullish(text(0, 1000)),
  app_logo: nullish(z.string().max(100_000)),
  weights: nullish(z.object({ cost: nullish(Weight), latency: nullish(Weight), quality: nullish(Weight) })),
  policies: nullish(
    z.object({
      privacy_level: nullish(z.int().min(1, 'must be 1, 2 or 3').max(3, 'must be 1, 2 or 3')),
      max_cost: nullish(z.number().min(0)),
      max_switch_model_retries: nullish(z.int().min(0, 'must be 0 to 5').max(5, 'must be 0 to 5')),
      max_same_model_retries: nullish(z.int().min(0, 'must be 0 to 3').max(3, 'must be 0 to 3')),
      optimize_internal_requests: nullish(z.int().min(0, 'must be 0 or 1').max(1, 'must be 0 or 1')),
      prompt_id: nullish(UuidInput),
    }),
  ),
  has_failover_chain: nullish(z.boolean()),
  settings: nullish(
    z.object({
      assistant_id: nullish(UuidInput),
      assistant_version_id: nullish(UuidInput),
      instructions: nullish(z.string().max(100_000)),
      max_tokens: nullish(MaxTokens),
      temperature: nullish(Temperature),
    }),
  ),
  /** Local-service extension: the failover chain's order, as model ids. Remote services ignore it. */
  failover_model_ids: nullish(z.array(UuidInput).max(20)),
});

const IntegrationGroup = z.object({
  id: z.string().min(1),
  token: z.string().min(1),
  /** Where the metrics or logs go: an http or https URL. */
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2000),
});

export const IntegrationsBody = z.object({
  metrics: nullish(IntegrationGroup),
  logs: nullish(IntegrationGroup),
});

/** The update as the built-in service reads it: the interface's names or the hosted service's (`prom`, `loki`). */
export const IntegrationsBodyEither = IntegrationsBody.extend({
  prom: nullish(IntegrationGroup),
  loki: nullish(IntegrationGroup),
});

export const PromptCreateBody = z.object({
  prompt: z.string().max(200_000),
  title: PromptTitle,
  description: PromptDescription,
});

export const PromptUpdateBody = z.object({
  prompt: z.string().max(200_000).optional(),
  title: PromptTitle.optional(),
  description: PromptDescription.optional(),
});

export const PromptShow = z.enum(['public', 'org', 'all']);
export const PromptListQuery = z.object({ show: PromptShow.default('all') });

export const ConversationUpdateBody = z.object({
  name: nullish(z.string().max(200)),
  settings: nullish(z.object({ assistant_id: nullish(UuidInput), assistant_version_id: nullish(UuidInput) })),
});

/** Data URLs, e.g. `data:image/png;base64,...`; the local service checks the media type. */
const Attachment = z.string().max(20 * 1024 * 1024);

export const ChatBody = z.object({
  prompt: z.string(),
  app_id: UuidInput,
  model: nullish(z.string()),
  temperature: nullish(Temperature),
  max_tokens: nullish(MaxTokens),
  assistant_id: nullish(UuidInput),
  assistant_version_id: nullish(UuidInput),
  conversation_id: nullish(UuidInput),
  parent_request_id: nullish(UuidInput),
  plugins: z.array(z.string()).optional(),
  images: nullish(z.array(Attachment)),
  files: nullish(z.array(Attachment)),
  stream: z.boolean().optional(),
});

// ---------------------------------------------------------------- chat completions (conventions.md, more extra endpoints)

/** A tool call in OpenAI's form: the model asks for `function.name` with JSON `arguments`. */
export const ToolCall = z.object({
  id: z.string().min(1).max(200),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1).max(200), arguments: z.string().max(1_000_000) }),
});

/** A PDF given whole, as a data URL: there is no file store here to name one by its id. */
const PdfData = z
  .string({
    error: 'must be a PDF as a data URL (data:application/pdf;base64,...); files are not kept here to name by id',
  })
  .max(20 * 1024 * 1024)
  .regex(/^data:application\/pdf;base64,/, 'must be a PDF as a data URL (data:application/pdf;base64,...)');

const ContentPart = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string().max(20 * 1024 * 1024), detail: z.enum(['auto', 'low', 'high']).optional() }),
  }),
  /** A PDF given whole, as OpenAI's chat API takes one. */
  z.object({
    type: z.literal('file'),
    file: z.object({ file_data: PdfData, filename: z.string().max(1000).optional() }),
  }),
]);

/** An OpenAI chat message: system, user (text or parts), assistant (text and/or tool calls) or a tool result. */
export const CompletionMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.union([z.string(), z.array(ContentPart)]) }),
  /** OpenAI's newer name for the system message; read as one. */
  z.object({ role: z.literal('developer'), content: z.union([z.string(), z.array(ContentPart)]) }),
  z.object({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(ContentPart)]),
    name: z.string().optional(),
  }),
  z.object({
    role: z.literal('assistant'),
    content: z
      .union([z.string(), z.array(ContentPart)])
      .nullable()
      .optional(),
    tool_calls: z.array(ToolCall).max(128).optional(),
    /** The call of OpenAI's older API (`functions`), one a turn, as older clients send it back. */
    function_call: ToolCall.shape.function.optional(),
  }),
  z.object({
    role: z.literal('tool'),
    content: z.union([z.string(), z.array(ContentPart)]),
    tool_call_id: z.string().min(1).max(200),
  }),
  /** A function's result in OpenAI's older API, by the function's name: the answer to the last call of it. */
  z.object({ role: z.literal('function'), name: z.string().min(1).max(200), content: z.string().nullable() }),
]);

/**
 * What a tool does, for the model: agents write pages of it (Claude Code's longest is over 10,000
 * characters), bounded by the body's own limit and this.
 */
const ToolDescription = z.string().max(200_000);

export const CompletionTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . or -'),
    description: ToolDescription.optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    /** The model's calls must follow `parameters` exactly (OpenAI's strict mode; see ToolOptions). */
    strict: nullish(z.boolean()),
  }),
});

export const ToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
]);

/** How a reply is to be written: free text, any JSON object, or JSON that follows a schema (OpenAI's shape). */
export const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
      description: z.string().max(10_000).optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: nullish(z.boolean()),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** How long a reply should be (OpenAI's `verbosity`). */
const Verbosity = z.enum(['low', 'medium', 'high']);

/** Fields OpenAI's clients (Codex, the Agents SDK) send with a chat completion or a response. */
const OPENAI_HINTS = {
  /** Groups requests that share a prompt for OpenAI's cache; other providers cache without it. */
  prompt_cache_key: nullish(z.string().max(1024)),
  /** How long OpenAI keeps the cached prompt (24 hours, or while it stays in memory); others keep theirs. */
  prompt_cache_retention: nullish(z.enum(['in_memory', '24h'])),
  /** Who asks, as OpenAI's newer clients name them instead of `user`; kept with nothing else. */
  safety_identifier: nullish(z.string().max(256)),
  service_tier: nullish(
    z.enum(['auto', 'default'], {
      error: 'only auto or default is supported: the flex and priority tiers cost otherwise than the catalogue lists',
    }),
  ),
};

/**
 * What a stream of OpenAI's adds: a last chunk with the usage, and the events padded with random
 * characters (`obfuscation`) so that their sizes do not tell the tokens'; OpenAI pads unless told not
 * to, the service only when asked (it answers on this machine).
 */
const StreamOptions = z.strictObject({
  include_usage: nullish(z.boolean()),
  include_obfuscation: nullish(z.boolean()),
});

/** Where the user is, roughly, as OpenAI's web search takes it (a hint for the search). */
const ApproximateLocation = {
  city: nullish(z.string().max(200)),
  country: nullish(z.string().max(2)),
  region: nullish(z.string().max(200)),
  timezone: nullish(z.string().max(100)),
};

/**
 * `POST /v1/chat/completions`: OpenAI's request. A Space key selects its Space; an organization token
 * names it with `app_id`. `model` null or absent: the Space's routing.
 */
export const ChatCompletionsBody = z
  .object({
    messages: z.array(CompletionMessage).min(1, 'must have at least one message').max(CONVERSATION_TURNS),
    model: nullish(z.string()),
    app_id: nullish(UuidInput),
    stream: nullish(z.boolean()),
    stream_options: nullish(StreamOptions),
    temperature: nullish(z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2')),
    max_tokens: nullish(MaxTokens),
    /** OpenAI's newer name for max_tokens. */
    max_completion_tokens: nullish(MaxTokens),
    top_p: nullish(z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')),
    seed: nullish(z.int()),
    frequency_penalty: nullish(z.number().min(-2, 'must be between -2 and 2').max(2, 'must be between -2 and 2')),
    presence_penalty: nullish(z.number().min(-2, 'must be between -2 and 2').max(2, 'must be between -2 and 2')),
    reasoning_effort: nullish(ReasoningEffort),
    /** One answer a request: what routing, logging and billing count. */
    n: nullish(z.literal(1, { error: 'only 1 is supported: one answer a request' })),
    /** Who asks, as the caller names them; kept with nothing else. */
    user: nullish(z.string().max(256)),
    tools: z.array(CompletionTool).max(128).optional(),
    tool_choice: ToolChoice.optional(),
    /**
     * OpenAI's older way to offer tools, before `tools` (LangChain's and other older clients still send
     * it): read as tools, and answered as it was asked, with one `function_call` a turn.
     */
    functions: z.array(CompletionTool.shape.function).min(1).max(128).optional(),
    function_call: nullish(z.union([z.enum(['auto', 'none']), z.object({ name: z.string().min(1).max(200) })])),
    /** false: at most one tool call a reply (Codex sends it for models that cannot run tools side by side). */
    parallel_tool_calls: nullish(z.boolean()),
    stop: nullish(z.union([z.string(), z.array(z.string()).max(4)])),
    response_format: ResponseFormat.optional(),
    /** Token probabilities: OpenAI's models report them; a model that cannot is left out or refused. */
    logprobs: nullish(z.boolean()),
    top_logprobs: nullish(z.int().min(0, 'must be between 0 and 20').max(20, 'must be between 0 and 20')),
    /**
     * Odds of tokens raised or lowered, by their ids in OpenAI's tokenizers: OpenAI's chat models take
     * it; routing leaves out the models that cannot (another's token ids are not these).
     */
    logit_bias: nullish(
      z
        .record(
          z.string(),
          z.number().min(-100, 'must be between -100 and 100').max(100, 'must be between -100 and 100'),
        )
        .refine((bias) => Object.keys(bias).every((id) => /^\d{1,7}$/.test(id)), 'must be keyed by token ids (numbers)')
        .refine((bias) => Object.keys(bias).length <= 1024, 'must bias at most 1,024 tokens'),
    ),
    ...OPENAI_HINTS,
    /** What the reply is made of: text, the one thing any model answers here (no audio is served). */
    modalities: nullish(
      z
        .array(z.literal('text', { error: 'only text is answered here: no model of a Space speaks audio through it' }))
        .max(2),
    ),
    /** How long the reply should be (OpenAI's GPT-5 models); a hint other models go without. */
    verbosity: nullish(Verbosity),
    /**
     * What the reply will mostly be (a file with a few lines changed): OpenAI's chat models on OpenAI or
     * Azure write the tokens that match it faster; any other model answers the same without it.
     */
    prediction: nullish(
      z.strictObject({
        type: z.literal('content'),
        content: z.union([
          z.string(),
          z.array(z.strictObject({ type: z.literal('text'), text: z.string() })).max(CONVERSATION_TURNS),
        ]),
      }),
    ),
    /**
     * OpenAI's web search on Chat Completions: the model searches the web before it answers, where its
     * provider runs a search (OpenAI's reasoning models, Anthropic's, Gemini's), and the message cites
     * the pages in its annotations; any other model answers without searching, and says so.
     */
    web_search_options: nullish(
      z
        .object({
          search_context_size: nullish(z.enum(['low', 'medium', 'high'])),
          user_location: nullish(
            z.object({ type: z.literal('approximate'), approximate: z.object(ApproximateLocation).strict() }).strict(),
          ),
        })
        .strict(),
    ),
    /**
     * false, as OpenAI's clients may send it: the completion is kept for nobody to read back by id (its
     * Space's log keeps it as its privacy level says); true asks for what is not offered.
     */
    store: nullish(
      z.literal(false, {
        error:
          "only false is taken: a chat completion is kept in its Space's log as its privacy level says, not for reading back by id",
      }),
    ),
  })
  // A field this service cannot honour is refused by its name, never dropped without a word.
  .strict();

/**
 * OpenAI's legacy text completion (POST /v1/completions), as code completion tools send it (Continue's
 * autocomplete, Twinny): a prompt to continue, and for filling in the middle the text after the cursor.
 */
export const TextCompletionsBody = z
  .object({
    model: nullish(z.string().max(300)),
    prompt: z.union([z.string(), z.array(z.string()).length(1)], {
      error: 'must be a text (one prompt a request; token ids are not taken)',
    }),
    suffix: nullish(z.string()),
    app_id: nullish(UuidInput),
    stream: nullish(z.boolean()),
    stream_options: ChatCompletionsBody.shape.stream_options,
    temperature: ChatCompletionsBody.shape.temperature,
    max_tokens: nullish(MaxTokens),
    top_p: ChatCompletionsBody.shape.top_p,
    seed: nullish(z.int()),
    frequency_penalty: ChatCompletionsBody.shape.frequency_penalty,
    presence_penalty: ChatCompletionsBody.shape.presence_penalty,
    // Code completion tools stop at many markers (a model server takes them all; OpenAI's API, 4).
    stop: nullish(z.union([z.string(), z.array(z.string()).max(32)])),
    /** One answer a request: what routing, logging and billing count. */
    n: ChatCompletionsBody.shape.n,
    best_of: nullish(z.literal(1, { error: 'only 1 is supported: one answer a request' })),
    echo: nullish(z.literal(false, { error: 'is not supported: the answer holds the completion only' })),
    logprobs: nullish(z.literal(0, { error: 'is not supported on text completions (chat completions report them)' })),
    user: ChatCompletionsBody.shape.user,
  })
  .strict();

/**
 * Mistral's fill in the middle (POST /v1/fim/completions), as Continue sends it for Codestral (`provider:
 * mistral`) and Mistral's SDK (`fim.complete`): the text before the cursor and the text after it.
 */
export const FimCompletionsBody = z
  .object({
    model: nullish(z.string().max(300)),
    prompt: z.string(),
    suffix: nullish(z.string()),
    app_id: nullish(UuidInput),
    stream: nullish(z.boolean()),
    temperature: ChatCompletionsBody.shape.temperature,
    max_tokens: nullish(MaxTokens),
    top_p: ChatCompletionsBody.shape.top_p,
    random_seed: nullish(z.int()),
    // Continue sends these too; a model server takes them, Mistral's own API goes without.
    frequency_penalty: ChatCompletionsBody.shape.frequency_penalty,
    presence_penalty: ChatCompletionsBody.shape.presence_penalty,
    stop: TextCompletionsBody.shape.stop,
    min_tokens: nullish(z.literal(0, { error: 'is not supported: the model decides where its answer ends' })),
    /** A hint for the provider's cache, which no model here needs. */
    prompt_cache_key: nullish(z.string().max(1024)),
  })
  .strict();

/** The most texts one embeddings request may carry (OpenAI's own limit). */
export const EMBEDDING_INPUTS = 2048;

/** The most tokens one text may have (OpenAI's embedding models' context). */
export const EMBEDDING_TOKENS = 8192;

/**
 * The highest id of an ordinary token of cl100k_base, the encoding clients send token ids in (tiktoken's
 * for these models); above it are special tokens, which tiktoken does not write into a text's ids.
 */
const CL100K_LAST = 100_255;

/** A text as token ids. */
const TokenIds = z
  .array(z.int().min(0).max(CL100K_LAST, `must be token ids of cl100k_base (0 to ${CL100K_LAST})`))
  .min(1, 'must have at least one token')
  .max(EMBEDDING_TOKENS, `must have at most ${EMBEDDING_TOKENS} tokens`);

/**
 * OpenAI's Embeddings request (POST /v1/embeddings): a text, texts, or each as token ids of
 * cl100k_base, as LangChain's OpenAIEmbeddings sends them by default (it cuts long texts with tiktoken).
 * Voyage AI's Embeddings API is the same request at the same path with fields of its own, which its
 * SDK and the tools made for it send (its API reference): whether the texts are a query or documents
 * (`input_type`), whether an over-long text is cut (`truncation`), the dimensions as `output_dimension`,
 * and the numbers' type (`output_dtype`). Cohere's models take the first two as well (as its own API's
 * `input_type` and `truncate`).
 */
export const EmbeddingsBody = z
  .object({
    model: z.string().min(1).max(300),
    input: z.union(
      [
        z.string(),
        z
          .array(z.string())
          .min(1, 'must have at least one text')
          .max(EMBEDDING_INPUTS, `must have at most ${EMBEDDING_INPUTS} texts`),
        TokenIds,
        z
          .array(TokenIds)
          .min(1, 'must have at least one text')
          .max(EMBEDDING_INPUTS, `must have at most ${EMBEDDING_INPUTS} texts`),
      ],
      {
        error: `must be a text, 1 to ${EMBEDDING_INPUTS} texts, or token ids of cl100k_base (of one text, or a list for each)`,
      },
    ),
    app_id: nullish(UuidInput),
    encoding_format: nullish(z.enum(['float', 'base64'])),
    dimensions: nullish(z.int().min(1).max(65_536)),
    /** Who asks, as the caller names them; kept with nothing else. */
    user: nullish(z.string().max(256)),
    input_type: nullish(z.enum(['query', 'document'])),
    truncation: nullish(z.boolean()),
    output_dimension: nullish(z.int().min(1).max(65_536)),
    output_dtype: nullish(z.enum(['float', 'int8', 'uint8', 'binary', 'ubinary'])),
  })
  .strict();

/**
 * An embedding model the built-in service knows (GET /v1/internal/embedding-models), for the Models
 * view: POST /v1/embeddings takes it by its namespace, and never routes it.
 */
export const EmbeddingModelRecord = z.looseObject({
  namespace: z.string(),
  provider: z.string(),
  /** Dollars per input token. */
  prompt_token_cost: z.number().catch(0),
  answers_here: z.boolean().catch(false),
  /** Retired from this day (ISO date), or soon to be. */
  deprecated_on: nullish(z.string()),
});
export type EmbeddingModelRecord = z.infer<typeof EmbeddingModelRecord>;

// ---------------------------------------------------------------- the built-in service's own endpoints

/** A routing candidate: its three scores in [0, 1], their weighted mean, and its estimated cost in dollars. */
export const RouteCandidate = z.looseObject({
  namespace: z.string(),
  score: z.number(),
  cost_score: z.number(),
  latency_score: z.number(),
  quality_score: z.number(),
  estimated_cost: z.number(),
  /** Whether the latency weighed was measured by the service or the catalogue's prior (built-in service). */
  latency_source: z.enum(['measured', 'prior']).optional().catch(undefined),
});

/** `POST /v1/apps/{app_id}/route`: what the Space would do with a prompt, without running a model. */
export const RouteQuestion = z.object({
  prompt: z.string().max(2_000_000),
  max_tokens: nullish(MaxTokens),
  /** How many images the request would carry (only whether there are any matters). */
  images: nullish(z.int().min(0).max(100)),
  /**
   * The request as the playground would send it, for the cost band: its earlier turns count too, and
   * its attached files (data URLs: images, PDFs and text files), as the service would send them.
   */
  files: nullish(z.array(Attachment).max(100)),
  model: nullish(z.string().min(1).max(200)),
  conversation_id: nullish(UuidInput),
  parent_request_id: nullish(UuidInput),
  /** The playground's plugins, as its send would name them: a web search is billed apart. */
  plugins: z.array(z.string().max(100)).max(20).optional(),
});

/**
 * What the request would cost, in dollars: `min` if the cheapest model that may answer (the first, or
 * one of the failover chain) wrote nothing, `max` if the dearest wrote max_tokens, and `expected` at the
 * model that answers first (test models: exactly their reply; others: half of max_tokens).
 * `prompt_tokens` counts what is sent: instructions and earlier turns as well as the prompt.
 */
export const CostBand = z.looseObject({
  min: z.number(),
  expected: z.number(),
  max: z.number(),
  model: z.string(),
  prompt_tokens: z.int(),
  max_tokens: z.int(),
});

export const RoutePreview = z.looseObject({
  strategy: z.string(),
  chosen: z.string().nullable(),
  prompt_tokens: z.int(),
  max_tokens: z.int(),
  candidates: records(RouteCandidate),
  rejected: records(z.looseObject({ namespace: z.string(), reason: z.string() })),
  failover: records(z.looseObject({ namespace: z.string(), estimated_cost: z.number() })),
  /** Null when no model could take the request as it would be sent. */
  band: CostBand.nullish().catch(null),
  /** Why sending the request as it is would be refused, in words (with no band); null when it would not. */
  refused: z.string().nullish().catch(null),
});

/** `POST /v1/models/refresh`: the model servers asked, and the models each offers. */
export const ModelServersRefreshed = z.looseObject({
  servers: records(
    z.looseObject({
      name: z.string(),
      base_url: z.string(),
      answered: z.boolean(),
      models: orDefault(z.array(z.string()), []),
      problem: nullish(z.string()),
    }),
  ),
});

// ---------------------------------------------------------------- extra endpoints (conventions.md)

export const SpaceListQuery = z.object({
  search: z.string().max(200).default(''),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(40),
});

export const SpaceList = z.looseObject({
  items: records(Space),
  total: orDefault(z.int(), 0),
  page: orDefault(z.int(), 1),
  size: orDefault(z.int(), 0),
  pages: orDefault(z.int(), 1),
});

export const SpaceCreateBody = z.object({
  name: nullish(text(1, 120)),
  description: nullish(text(0, 1000)),
  app_logo: nullish(z.string().max(100_000)),
});

export const RegeneratedKey = z.looseObject({
  created_key: z.string(),
  key_end: z.string(),
});

export const SpaceCreated = z.looseObject({
  id: Uuid,
  org_id: Uuid,
  created_key: z.string(),
  key_end: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
});

export const SpaceModels = z.looseObject({
  active_models: orDefault(z.int(), 0),
  base_model_settings: records(ModelSetting),
  failover_models: records(ModelRecord),
});

export const ToggleQuery = z.object({ enable: z.enum(['true', 'false']) });
/** The hosted service answers with the model's record, the built-in one with its namespace: read as the namespace. */
export const ToggleResult = z.looseObject({
  success: z.boolean(),
  model: z.union([z.string(), z.looseObject({ namespace: z.string() }).transform((m) => m.namespace)]),
  active: z.boolean(),
});

export const ConversationCreateBody = z.object({
  name: z.string().max(200),
  settings: nullish(z.object({ assistant_id: nullish(UuidInput), assistant_version_id: nullish(UuidInput) })),
});

export const ConversationReadBody = z.object({ include_requests: z.boolean().default(false) });

const WebPage = z.looseObject({ url: z.string().regex(/^https?:\/\//i), title: z.string().nullish().catch(null) });

/** A page on the web a reply cites, read tolerantly: none for what has no address on the web; titled by its address when untitled. */
export function citedPageOf(said: unknown): CitedPage | undefined {
  const page = WebPage.safeParse(said).data;
  return page && { url: page.url, title: page.title || page.url };
}

export const LoggedRequest = z.looseObject({
  id: Uuid,
  app_id: Uuid,
  conversation_id: maybe(Uuid),
  parent_request_id: maybe(Uuid),
  model: maybe(z.string()),
  /** Null when the Space's privacy level keeps no text (2 and 3). */
  prompt: maybe(z.string()),
  response: maybe(z.string()),
  prompt_tokens: orDefault(z.int(), 0),
  completion_tokens: orDefault(z.int(), 0),
  total_tokens: orDefault(z.int(), 0),
  cost: price(),
  cost_savings: price(),
  latency: price(),
  status_code: orDefault(z.int(), 200),
  error: maybe(z.string()),
  added_on: words(),
  /**
   * The pages the reply cites (those its web search found), once each in the order first cited; the
   * built-in service's own field, kept with the reply's text (privacy level 1). Any that is not an
   * address on the web is passed over.
   */
  sources: z
    .array(z.unknown())
    .optional()
    .catch(undefined)
    .transform((pages) => (pages ?? []).flatMap((page) => citedPageOf(page) ?? [])),
  /** Google's Search Suggestions shown with a Gemini model's grounded reply (HTML): the built-in service's own field. */
  search_suggestions: z.string().optional().catch(undefined),
  /**
   * Of the prompt's tokens those read from the provider's cache, and of the completion's those the model
   * reasoned in: the built-in service's own fields, where the provider counted them.
   */
  cached_tokens: z.int().nonnegative().optional().catch(undefined),
  reasoning_tokens: z.int().nonnegative().optional().catch(undefined),
});

export const ConversationWithRequests = Conversation.extend({ requests: records(LoggedRequest).optional() });

export const AssistantSummary = z.looseObject({
  id: Uuid,
  app_id: Uuid,
  name: z.string(),
  description: maybe(z.string()),
  visibility: words(),
  /** The hosted service may leave the versions out. */
  versions: records(z.looseObject({ id: Uuid, published: flag(), added_on: words() }))
    .optional()
    .transform((v) => v ?? []),
});

export const AssistantCreateBody = z.object({
  name: z.string().min(1).max(120),
  description: nullish(z.string().max(1000)),
});

export const AssistantVersionCreateBody = z.object({
  persona: nullish(z.string().max(100_000)),
  instructions: nullish(z.string().max(100_000)),
  greeting: nullish(z.string().max(100_000)),
  writing_style: nullish(z.string().max(100_000)),
  sample_interactions: nullish(z.string().max(100_000)),
  model_id: nullish(UuidInput),
  temperature: nullish(Temperature),
  max_tokens: nullish(MaxTokens),
  published: z.boolean().optional(),
});

export const DeleteResult = z.looseObject({ success: z.boolean() });

// ---------------------------------------------------------------- playground response (conventions.md)

export const Usage = z.looseObject({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  /** Of the prompt's tokens, those read from and written to the provider's cache (a service may not say). */
  prompt_tokens_details: z
    .looseObject({ cached_tokens: z.int().optional(), cache_write_tokens: z.int().optional() })
    .optional()
    .catch(undefined),
  /**
   * Of the completion's tokens, those the model reasoned in, and of a predicted output those taken as
   * they were and those written anew; only where the provider counted them.
   */
  completion_tokens_details: z
    .looseObject({
      reasoning_tokens: z.int().optional(),
      accepted_prediction_tokens: z.int().optional(),
      rejected_prediction_tokens: z.int().optional(),
    })
    .optional()
    .catch(undefined),
});
const CostTriple = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});
/** `stop` and `length` from the built-in service; other services add more (`tool_calls`, `content_filter`). */
export const FinishReason = z.string();

/**
 * Why a reply went to the model it did (conventions.md, "Routing receipt"): how the model was chosen
 * (`routed` by the weights, `model` named by the request, `failover` when another model answered),
 * the candidates, the Space's models left out with the reason, and each attempt. Only the built-in
 * service sends it.
 */
export const RoutingReceipt = z.looseObject({
  strategy: z.string(),
  candidates: records(RouteCandidate),
  rejected: records(z.looseObject({ namespace: z.string(), reason: z.string() })),
  attempts: records(z.looseObject({ namespace: z.string(), status_code: z.int(), error: z.string().nullable() })),
  /** Whose token counts were billed: the provider's, or estimated here (test models, a server that sent none). */
  usage: z.enum(['provider', 'estimated']).optional().catch(undefined),
});

export const ChatMetadata = z.looseObject({
  app_id: z.string(),
  conversation_id: z.string().nullable(),
  parent_request_id: z.string().nullable(),
  model: z.looseObject({
    model: z.string(),
    namespace: z.string(),
    provider: z.string().nullable(),
    owner: z.string().nullable(),
    at: z.string().nullable(),
  }),
  costs: CostTriple,
  cost_savings: CostTriple,
  latency: z.number(),
  retries: z.int(),
  status_code: z.int(),
  error: z.string().nullable(),
  warning: z.string().nullable(),
  /** A receipt that cannot be read is left out: the reply stands without it. */
  routing: RoutingReceipt.optional().catch(undefined),
});

export const ChatCompletion = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int(),
      finish_reason: FinishReason.nullable(),
      message: z.looseObject({
        role: z.literal('assistant'),
        content: z
          .string()
          .nullable()
          .transform((c) => c ?? ''),
        tool_calls: records(ToolCall).optional(),
        /** Google's Search Suggestions for a Gemini model's grounded reply (HTML): the built-in service's own field. */
        search_suggestions: z.string().optional().catch(undefined),
      }),
    }),
  ),
  usage: Usage,
  metadata: ChatMetadata,
});

export const ChatChunk = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int(),
      delta: z.looseObject({
        content: z.string().nullish(),
        /** The model's reasoning as it thinks (DeepSeek's and the built-in service's name; OpenRouter's is `reasoning`). */
        reasoning_content: z.string().nullish().catch(undefined),
        reasoning: z.string().nullish().catch(undefined),
        /** What the text cites (OpenAI's annotations: the pages a web search found), read by the client. */
        annotations: z.array(z.unknown()).nullish().catch(undefined),
        /** Google's Search Suggestions for a Gemini model's grounded reply (HTML): the built-in service's own field. */
        search_suggestions: z.string().nullish().catch(undefined),
        tool_calls: z
          .array(
            z.looseObject({
              index: z.int(),
              id: z.string().optional(),
              function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
            }),
          )
          .optional(),
      }),
      finish_reason: FinishReason.nullable(),
    }),
  ),
  usage: Usage.optional(),
  metadata: ChatMetadata.optional(),
});

export const StreamError = z.looseObject({ error: z.looseObject({ detail: z.string() }) });
/** An error in OpenAI's shape (its routes answer so: conventions.md), in a reply or in a stream. */
export const OpenAiErrorBody = z.looseObject({
  error: z.looseObject({ message: z.string(), code: z.string().nullish(), param: z.string().nullish() }),
});

// ---------------------------------------------------------------- errors (conventions.md)

export const ValidationIssue = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export const ErrorBody = z.looseObject({ detail: z.union([z.string(), z.array(ValidationIssue)]) });

export const Health = z.looseObject({ status: z.literal('ok'), version: z.string() });

export type Weights = z.infer<typeof Weights>;
export type Policies = z.infer<typeof Policies>;
export type SpaceSettings = z.infer<typeof SpaceSettings>;
export type PromptRecord = z.infer<typeof PromptRecord>;
export type Space = z.infer<typeof Space>;
export type ModelSetting = z.infer<typeof ModelSetting>;
export type SpaceDetail = z.infer<typeof SpaceDetail>;
export type SpaceUpdateResponse = z.infer<typeof SpaceUpdateResponse>;
export type Conversation = z.infer<typeof Conversation>;
export type AssistantVersion = z.infer<typeof AssistantVersion>;
export type Organization = z.infer<typeof Organization>;
export type SpaceUpdateBody = z.input<typeof SpaceUpdateBody>;
export type IntegrationsBody = z.input<typeof IntegrationsBody>;
export type IntegrationsBodyEither = z.input<typeof IntegrationsBodyEither>;
export type PromptCreateBody = z.input<typeof PromptCreateBody>;
export type PromptUpdateBody = z.input<typeof PromptUpdateBody>;
export type PromptShow = z.infer<typeof PromptShow>;
export type ConversationUpdateBody = z.input<typeof ConversationUpdateBody>;
export type ChatBody = z.input<typeof ChatBody>;
export type ChatCompletionsBody = z.input<typeof ChatCompletionsBody>;
export type RoutePreview = z.infer<typeof RoutePreview>;
export type CostBand = z.infer<typeof CostBand>;
export type ModelServersRefreshed = z.infer<typeof ModelServersRefreshed>;
export type RouteQuestion = z.input<typeof RouteQuestion>;
export type CompletionMessage = z.infer<typeof CompletionMessage>;
export type ToolCall = z.infer<typeof ToolCall>;
export type SpaceListQuery = Partial<z.infer<typeof SpaceListQuery>>;
export type SpaceList = z.infer<typeof SpaceList>;
export type SpaceCreateBody = z.input<typeof SpaceCreateBody>;
export type SpaceCreated = z.infer<typeof SpaceCreated>;
export type RegeneratedKey = z.infer<typeof RegeneratedKey>;
export type SpaceModels = z.infer<typeof SpaceModels>;
export type ToggleResult = z.infer<typeof ToggleResult>;
export type ConversationCreateBody = z.input<typeof ConversationCreateBody>;
export type LoggedRequest = z.infer<typeof LoggedRequest>;
export type ConversationWithRequests = z.infer<typeof ConversationWithRequests>;
export type AssistantSummary = z.infer<typeof AssistantSummary>;
export type AssistantCreateBody = z.input<typeof AssistantCreateBody>;
export type AssistantVersionCreateBody = z.input<typeof AssistantVersionCreateBody>;
export type ChatCompletion = z.infer<typeof ChatCompletion>;
export type ChatChunk = z.infer<typeof ChatChunk>;
export type ChatMetadata = z.infer<typeof ChatMetadata>;
export type RoutingReceipt = z.infer<typeof RoutingReceipt>;
export type Usage = z.infer<typeof Usage>;
export type ValidationIssue = z.infer<typeof ValidationIssue>;

// ---------------------------------------------------------------- provider keys (built-in service)

/** A provider's key handed to the built-in service, kept in its memory only. */
export const ProviderKeyBody = z.object({
  // A Google Cloud service account's key file (its JSON) is the longest: some 2,400 characters.
  key: z.string().trim().min(8, 'is too short to be a key').max(10_000),
  /** Where to reach the provider instead of its own address (a proxy); includes the API's version path. */
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2000)
    .nullish(),
  /**
   * The key worked before (the extension hands over the keys it kept): Spaces nobody has changed route
   * to the provider at once. A new key waits for a check that works (POST …/check).
   */
  verified: z.boolean().optional(),
});
export type ProviderKeyBody = z.infer<typeof ProviderKeyBody>;

/** An Azure OpenAI deployment of the organization, by the OpenAI model it runs (`openai/gpt-5.4`, or `gpt-5.4`). */
export const AzureDeploymentBody = z.object({ model: z.string().trim().min(1).max(200) });
export type AzureDeploymentBody = z.infer<typeof AzureDeploymentBody>;

/** A hosted provider as the built-in service can reach it. */
export const ProviderState = z.looseObject({
  id: z.string(),
  label: z.string(),
  has_key: z.boolean(),
  /** Where the key came from: the service's environment, or handed over by the extension. */
  key_source: nullish(z.enum(['environment', 'extension']).catch(null as never)),
  /** The variable the standalone service reads the key from. */
  key_variable: z.string(),
  /** Until when the provider gets no requests after repeated failures (ISO time), or null. */
  cooling_until: nullish(z.string()),
  keys_page: words(),
});
export type ProviderState = z.infer<typeof ProviderState>;

export const ProviderCheck = z.looseObject({
  ok: z.boolean(),
  /** What was tried and what it answered, in words (never the key). */
  message: z.string(),
  model: nullish(z.string()),
});
export type ProviderCheck = z.infer<typeof ProviderCheck>;

// ---------------------------------------------------------------- Anthropic's Messages API (built-in service)

/** A prompt-cache breakpoint: the provider may cache the prompt up to here (Anthropic's models read it). */
const CacheControl = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
export type CacheControl = z.infer<typeof CacheControl>;
const AnthropicText = z.object({ type: z.literal('text'), text: z.string(), cache_control: CacheControl.optional() });
/** How hard an Anthropic model works on a reply (its `output_config.effort`). */
const AnthropicEffort = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);
const AnthropicImage = z.object({
  type: z.literal('image'),
  source: z.object({
    type: z.literal('base64'),
    media_type: z.string().regex(/^image\/[a-z0-9.+-]+$/i, 'must be an image type'),
    data: z.string().max(20 * 1024 * 1024),
  }),
  cache_control: CacheControl.optional(),
});
/**
 * A document the model reads: a PDF, or plain text, with its title and what it is about. Its citations
 * (which only Anthropic's models give) are not offered here.
 */
const AnthropicDocument = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('base64'),
      media_type: z.literal('application/pdf'),
      data: z.string().max(32 * 1024 * 1024),
    }),
    z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string().max(32 * 1024 * 1024) }),
  ]),
  title: nullish(z.string().max(1000)),
  context: nullish(z.string().max(100_000)),
  citations: z
    .object({
      enabled: z.literal(false, {
        error:
          "cannot be enabled here: a document's citations come only from Anthropic's models, and a Space may route to another",
      }),
    })
    .optional(),
  cache_control: CacheControl.optional(),
});
const AnthropicToolUse = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(64),
  input: z.record(z.string(), z.unknown()),
  cache_control: CacheControl.optional(),
});
/**
 * A tool a tool search found (Claude Code's ToolSearch), which the model may call from then on: one of
 * the request's tools, most often one sent with `defer_loading`.
 */
const AnthropicToolReference = z.object({
  type: z.literal('tool_reference'),
  tool_name: z.string().min(1).max(64),
  cache_control: CacheControl.optional(),
});
const AnthropicToolResult = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1).max(200),
  /**
   * What the tool gave back: text, images and documents (a file it read, a screenshot it took), and the
   * tools a tool search found.
   */
  content: z
    .union([
      z.string(),
      z.array(z.discriminatedUnion('type', [AnthropicText, AnthropicImage, AnthropicDocument, AnthropicToolReference])),
    ])
    .optional(),
  is_error: z.boolean().optional(),
  cache_control: CacheControl.optional(),
});
/** The model's own earlier thinking, sent back in an assistant turn: to an Anthropic model, signed as it was given. */
const AnthropicThinking = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
const AnthropicRedactedThinking = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
/** A server tool the model ran at Anthropic in an earlier turn (its web search or fetch), sent back as it was given. */
const AnthropicServerToolUse = z.object({
  type: z.literal('server_tool_use'),
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(64),
  input: z.record(z.string(), z.unknown()),
  cache_control: CacheControl.optional(),
});
/** What that web search found (the pages' content encrypted by Anthropic), or why it found nothing. */
const AnthropicWebSearchToolResult = z.object({
  type: z.literal('web_search_tool_result'),
  tool_use_id: z.string().min(1).max(200),
  content: z.union([
    z
      .array(
        z.object({
          type: z.literal('web_search_result'),
          url: z.string().max(8192),
          title: nullish(z.string().max(2000)),
          page_age: nullish(z.string().max(200)),
          encrypted_content: z.string(),
        }),
      )
      .max(100),
    z.object({ type: z.literal('web_search_tool_result_error'), error_code: z.string().max(100) }),
  ]),
  cache_control: CacheControl.optional(),
});
/** The page that web fetch read (its text, or a PDF), or why it read none. */
const AnthropicWebFetchToolResult = z.object({
  type: z.literal('web_fetch_tool_result'),
  tool_use_id: z.string().min(1).max(200),
  content: z.union([
    z.object({
      type: z.literal('web_fetch_result'),
      url: z.string().max(8192),
      retrieved_at: nullish(z.string().max(100)),
      content: z.object({
        type: z.literal('document'),
        title: nullish(z.string().max(2000)),
        citations: z.object({ enabled: z.boolean() }).optional(),
        source: z.discriminatedUnion('type', [
          z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
          z.object({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string() }),
        ]),
      }),
    }),
    z.object({ type: z.literal('web_fetch_tool_result_error'), error_code: z.string().max(100) }),
  ]),
  cache_control: CacheControl.optional(),
});
/**
 * What Anthropic's tool search found (its tool search tool, run at Anthropic): the request's tools it
 * loaded, or why it found none.
 */
const AnthropicToolSearchToolResult = z.object({
  type: z.literal('tool_search_tool_result'),
  tool_use_id: z.string().min(1).max(200),
  content: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('tool_search_tool_search_result'),
      tool_references: z.array(AnthropicToolReference.omit({ cache_control: true })).max(1000),
    }),
    z.object({
      type: z.literal('tool_search_tool_result_error'),
      error_code: z.string().max(100),
      error_message: nullish(z.string().max(2000)),
    }),
  ]),
  cache_control: CacheControl.optional(),
});
/**
 * A summary of the conversation before it (Anthropic's compaction, chat/compaction.ts), in an assistant
 * turn: it stands for every block before it. One without a summary (a compaction that failed) stands for
 * nothing.
 */
const AnthropicCompaction = z.object({
  type: z.literal('compaction'),
  content: nullish(
    z
      .string()
      .min(1, 'must not be empty: send null for a compaction that failed')
      .max(20 * 1024 * 1024),
  ),
  encrypted_content: nullish(z.string().max(20 * 1024 * 1024)),
  signature: nullish(z.string().max(100_000)),
  cache_control: CacheControl.optional(),
});
/**
 * A call of a remote MCP server's tool the service ran for the model in an earlier turn (Anthropic's MCP
 * connector), sent back as it was given: the tool by its own name and its server's.
 */
const AnthropicMcpToolUse = z.object({
  type: z.literal('mcp_tool_use'),
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  server_name: z.string().min(1).max(64),
  input: z.record(z.string(), z.unknown()),
  cache_control: CacheControl.optional(),
});
/** What that call gave back (its text), or why it failed. */
const AnthropicMcpToolResult = z.object({
  type: z.literal('mcp_tool_result'),
  tool_use_id: z.string().min(1).max(200),
  is_error: z.boolean().optional(),
  content: z.union([z.string(), z.array(AnthropicText)]).optional(),
  cache_control: CacheControl.optional(),
});
const AnthropicBlock = z.discriminatedUnion('type', [
  AnthropicText,
  AnthropicImage,
  AnthropicDocument,
  AnthropicToolUse,
  AnthropicToolResult,
  AnthropicThinking,
  AnthropicRedactedThinking,
  AnthropicServerToolUse,
  AnthropicWebSearchToolResult,
  AnthropicWebFetchToolResult,
  AnthropicToolSearchToolResult,
  AnthropicCompaction,
  AnthropicMcpToolUse,
  AnthropicMcpToolResult,
]);

/** A threshold of Anthropic's context editing: input tokens or tool uses. */
const EditCount = (unit: 'input_tokens' | 'tool_uses') => z.object({ type: z.literal(unit), value: z.int().min(0) });

/** What replaces the prompt a model sums a conversation up by (Anthropic's compaction's `instructions`). */
const CompactionInstructions = nullish(z.string().max(100_000));

/**
 * Anthropic's context editing (`context_management`), which Claude Code sends: clearing old tool
 * results and old thinking, done as Anthropic describes them (chat/contextEdits.ts); and compaction,
 * a summary in place of the conversation once it passes its trigger (chat/compaction.ts).
 */
export const AnthropicContextManagement = z.object({
  edits: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          type: z.literal('clear_thinking_20251015'),
          keep: z
            .union([z.literal('all'), z.object({ type: z.literal('thinking_turns'), value: z.int().min(0) })])
            .optional(),
        }),
        z.object({
          type: z.literal('clear_tool_uses_20250919'),
          trigger: z.union([EditCount('input_tokens'), EditCount('tool_uses')]).optional(),
          keep: EditCount('tool_uses').optional(),
          clear_at_least: EditCount('input_tokens').optional(),
          exclude_tools: z.array(z.string().max(64)).max(128).optional(),
          clear_tool_inputs: z.union([z.boolean(), z.array(z.string().max(64)).max(128)]).optional(),
        }),
        z.object({
          type: z.literal('compact_20260112'),
          trigger: nullish(
            z.object({
              type: z.literal('input_tokens'),
              value: z.int().min(50_000, 'must be at least 50,000 input tokens, as Anthropic asks'),
            }),
          ),
          pause_after_compaction: z.boolean().optional(),
          instructions: CompactionInstructions,
        }),
      ]),
    )
    .max(10)
    .refine((edits) => edits.filter((e) => e.type === 'compact_20260112').length <= 1, 'takes one compaction edit'),
});

/** Anthropic's tools that run at Anthropic: web search and fetch, code execution. */
export const ANTHROPIC_SERVER_TOOL = /^(web_search|web_fetch|code_execution)_\d{8}$/;

/**
 * Anthropic's tools that the client runs (bash, the text editor, memory, computer use), by their type, with the name
 * each must go by (Anthropic's tool reference): Anthropic defines their schemas.
 */
export const ANTHROPIC_CLIENT_TOOLS: ReadonlyMap<string, string> = new Map([
  ['bash_20241022', 'bash'],
  ['bash_20250124', 'bash'],
  ['text_editor_20241022', 'str_replace_editor'],
  ['text_editor_20250124', 'str_replace_editor'],
  ['text_editor_20250429', 'str_replace_based_edit_tool'],
  ['text_editor_20250728', 'str_replace_based_edit_tool'],
  ['memory_20250818', 'memory'],
  ['computer_20241022', 'computer'],
  ['computer_20250124', 'computer'],
  ['computer_20251124', 'computer'],
]);

/**
 * Anthropic's tool search tools, which run at Anthropic (by regular expression, or BM25 over the words of
 * a query), by type, with the name each must go by: the model finds the tools sent with `defer_loading`.
 */
export const ANTHROPIC_TOOL_SEARCH: ReadonlyMap<string, 'tool_search_tool_regex' | 'tool_search_tool_bm25'> = new Map([
  ['tool_search_tool_regex_20251119', 'tool_search_tool_regex'],
  ['tool_search_tool_regex', 'tool_search_tool_regex'],
  ['tool_search_tool_bm25_20251119', 'tool_search_tool_bm25'],
  ['tool_search_tool_bm25', 'tool_search_tool_bm25'],
] as const);

/** The versions of Anthropic's web search the AI SDK's Anthropic package can ask for (its provider tools). */
export const ANTHROPIC_WEB_SEARCH: ReadonlySet<string> = new Set([
  'web_search_20250305',
  'web_search_20260209',
  'web_search_20260318',
]);

/** The versions of Anthropic's web fetch the AI SDK's Anthropic package can ask for (its provider tools). */
export const ANTHROPIC_WEB_FETCH: ReadonlySet<string> = new Set([
  'web_fetch_20250910',
  'web_fetch_20260209',
  'web_fetch_20260318',
]);

/**
 * A tool of an Anthropic request: one the client runs; or Anthropic's server tools, which run at
 * Anthropic. Its web search (Claude Code asks one request to search the web so) and its web fetch are
 * given to Anthropic's models with how far they may go, its tool search to find the deferred tools (any
 * other model is shown every tool); the others, and any tool of Anthropic's to other models, are not
 * given to the model, which the reply says.
 */
const AnthropicTool = z
  .object({
    type: z
      .union([
        z.literal('custom'),
        z.enum([...ANTHROPIC_CLIENT_TOOLS.keys(), ...ANTHROPIC_TOOL_SEARCH.keys()] as [string, ...string[]]),
        z
          .string()
          .regex(
            ANTHROPIC_SERVER_TOOL,
            'must be custom, one of Anthropic’s server tools, or its bash, text editor, memory or computer-use tool',
          ),
      ])
      .optional(),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
    description: ToolDescription.optional(),
    input_schema: z.record(z.string(), z.unknown()).optional(),
    cache_control: CacheControl.optional(),
    /** The model's calls must follow `input_schema` exactly (Anthropic's strict tool use). */
    strict: z.boolean().optional(),
    /**
     * Tool search, as Claude Code asks for it: the model is not shown the tool until a tool's result
     * names it (a `tool_reference`).
     */
    defer_loading: z.boolean().optional(),
    /** Inputs that show the model how to call the tool. */
    input_examples: z.array(z.record(z.string(), z.unknown())).max(20).optional(),
    /** Its input streamed as the model writes it, not checked first (Anthropic's fine-grained tool streaming). */
    eager_input_streaming: nullish(z.boolean()),
    max_uses: z.int().min(1).optional(),
    /** Web fetch's: the page's text may be cited, and how many tokens of it the model reads at most. */
    citations: z.object({ enabled: z.boolean() }).optional(),
    max_content_tokens: z.int().min(1).optional(),
    /** The text editor's (2025-07-28): how many characters of a file it shows at most. */
    max_characters: z.int().min(1).optional(),
    /** Computer use's: the screen's size in pixels, its X display, and (2025-11-24) zooming in. */
    display_width_px: z.int().min(1).max(100_000).optional(),
    display_height_px: z.int().min(1).max(100_000).optional(),
    display_number: nullish(z.int().min(0)),
    enable_zoom: z.boolean().optional(),
    allowed_domains: z.array(z.string().max(253)).max(200).optional(),
    blocked_domains: z.array(z.string().max(253)).max(200).optional(),
    user_location: z
      .object({
        type: z.literal('approximate'),
        city: z.string().max(200).optional(),
        region: z.string().max(200).optional(),
        country: z.string().max(2).optional(),
        timezone: z.string().max(100).optional(),
      })
      .optional(),
  })
  .check((ctx) => {
    const server = ctx.value.type !== undefined && ctx.value.type !== 'custom';
    if (!server && !ctx.value.input_schema)
      ctx.issues.push({ code: 'custom', input: ctx.value, path: ['input_schema'], message: 'is required' });
    if (ctx.value.type?.startsWith('computer_'))
      for (const size of ['display_width_px', 'display_height_px'] as const)
        if (ctx.value[size] === undefined)
          ctx.issues.push({ code: 'custom', input: ctx.value, path: [size], message: 'is required' });
    const named = ANTHROPIC_CLIENT_TOOLS.get(ctx.value.type ?? '') ?? ANTHROPIC_TOOL_SEARCH.get(ctx.value.type ?? '');
    if (named && ctx.value.name !== named)
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['name'],
        message: `must be ${named} for ${ctx.value.type}, as Anthropic names it`,
      });
  });

/** Whether an MCP server's tool is offered to the model, and shown only once a tool search loads it. */
const AnthropicMcpToolConfig = z.strictObject({ enabled: nullish(z.boolean()), defer_loading: nullish(z.boolean()) });

/**
 * The tools of one of the request's MCP servers the model is offered (Anthropic's MCP connector since
 * 2025-11-20): all of them by `default_config`, each by its own in `configs`.
 */
const AnthropicMcpToolset = z.strictObject({
  type: z.literal('mcp_toolset'),
  mcp_server_name: z.string().min(1).max(64),
  default_config: nullish(AnthropicMcpToolConfig),
  configs: nullish(z.record(z.string().max(200), AnthropicMcpToolConfig)),
  cache_control: CacheControl.optional(),
});

/**
 * A remote MCP server whose tools the model may call (Anthropic's MCP connector): the service connects
 * to it over MCP's Streamable HTTP with the token given, and runs the calls, for any model of a Space.
 * Its tools are those of its toolset, or (as the connector was first given) of `tool_configuration`.
 */
const AnthropicMcpServer = z.strictObject({
  type: z.literal('url'),
  url: z.url({ protocol: /^https?$/, error: 'must be the http or https address of an MCP server' }).max(2000),
  name: z.string().min(1).max(64),
  authorization_token: nullish(z.string().min(1).max(10_000)),
  tool_configuration: nullish(
    z.strictObject({
      enabled: nullish(z.boolean()),
      allowed_tools: nullish(z.array(z.string().max(200)).max(1000)),
    }),
  ),
});

/** A tool a tool change names: one of the request's tools, or one an earlier change defined. */
const ToolChangeReference = z.object({ type: z.literal('tool_reference'), name: z.string().min(1).max(64) });

/**
 * Tools added and withdrawn in the course of a conversation (Anthropic's tool changes, blocks of a
 * system message): from that message on, the model is offered them, or no longer.
 */
const AnthropicToolAddition = z.object({
  type: z.literal('tool_addition'),
  tool: z.discriminatedUnion(
    'type',
    [ToolChangeReference, z.object({ type: z.literal('tool_definition'), definition: AnthropicTool })],
    {
      error: 'must be a tool_reference or a tool_definition (an MCP server\u2019s toolset is given in tools, not here)',
    },
  ),
  cache_control: CacheControl.optional(),
});
const AnthropicToolRemoval = z.object({
  type: z.literal('tool_removal'),
  tool: z.discriminatedUnion('type', [ToolChangeReference], {
    error: 'must be a tool_reference (an MCP server\u2019s toolset is given in tools, not here)',
  }),
  cache_control: CacheControl.optional(),
});

/** A message of an Anthropic conversation: the user's, the assistant's as it answered, or instructions. */
export const AnthropicMessage = z.discriminatedUnion('role', [
  z.object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(AnthropicBlock).max(1000)]),
  }),
  // Instructions in the course of the conversation (Anthropic's mid-conversation system
  // messages), as Claude Code 2.1 sends its environment to a model it does not know: text, tools
  // added or withdrawn from there on, shown until the next user message only (`clear_at`), and the
  // effort of the turn it is in.
  z
    .object({
      role: z.literal('system'),
      content: z
        .union([
          z.string(),
          z
            .array(
              z.discriminatedUnion('type', [AnthropicText, AnthropicToolAddition, AnthropicToolRemoval], {
                error: 'must be a block of type text, tool_addition or tool_removal',
              }),
            )
            .max(1000),
        ])
        .optional(),
      clear_at: nullish(z.enum(['next_user_message', 'never'])),
      output_config: nullish(z.object({ effort: nullish(AnthropicEffort) }).strict()),
    })
    .check((ctx) => {
      if (ctx.value.content === undefined && !ctx.value.output_config)
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          path: ['content'],
          message: 'is required without output_config',
        });
    }),
]);
const AnthropicMessages = z.array(AnthropicMessage).max(CONVERSATION_TURNS);

/** `POST /v1/messages`: Anthropic's request, routed through a Space like a chat completion. */
export const AnthropicMessagesBody = z
  .object({
    model: z.string().min(1).max(300),
    max_tokens: MaxTokens,
    messages: AnthropicMessages.min(1, 'must have at least one message'),
    system: z.union([z.string(), z.array(AnthropicText)]).optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
    top_p: z.number().min(0).max(1).optional(),
    stop_sequences: z.array(z.string()).max(4).optional(),
    /**
     * The tools the client runs; and Anthropic's server tools, which run at Anthropic. Its web search
     * (Claude Code asks one request to search the web so) and its web fetch are given to Anthropic's
     * models with how far they may go, its tool search to find the deferred tools (any other model is
     * shown every tool); the others, and any tool of Anthropic's to other models, are not given to the
     * model, which the reply says.
     */
    tools: z
      .array(z.union([AnthropicMcpToolset, AnthropicTool]))
      .max(128)
      .optional(),
    /** Remote MCP servers whose tools the model may call, by their toolsets in `tools` (Anthropic's MCP connector). */
    mcp_servers: z
      .array(AnthropicMcpServer)
      .max(20)
      .refine((servers) => new Set(servers.map((s) => s.name)).size === servers.length, 'must name each server once')
      .optional(),
    /** `disable_parallel_tool_use`: at most one tool call a reply (as OpenAI's parallel_tool_calls false). */
    tool_choice: z
      .union([
        z.object({ type: z.enum(['auto', 'any']), disable_parallel_tool_use: z.boolean().optional() }),
        z.object({ type: z.literal('none') }),
        z.object({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
      ])
      .optional(),
    metadata: z.object({ user_id: z.string().max(256).optional() }).optional(),
    /**
     * Extended thinking, as Claude Code asks for it: an Anthropic model thinks so (a budget inside
     * max_tokens), and its reply carries its thinking blocks; other providers' models go without.
     */
    thinking: z
      .union([
        z.object({ type: z.literal('enabled'), budget_tokens: z.int().min(0) }),
        z.object({ type: z.literal('adaptive'), budget_tokens: z.int().min(0).optional() }),
        z.object({ type: z.literal('disabled') }),
      ])
      .optional(),
    /** How hard the model works (as a reasoning effort for the provider), and JSON that follows a schema. */
    output_config: z
      .object({
        effort: nullish(AnthropicEffort),
        format: nullish(z.object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })),
      })
      .optional(),
    context_management: AnthropicContextManagement.optional(),
    /**
     * A request to sum the conversation up (Anthropic's compaction): the answer is the summary alone, a
     * `compaction` block, which later requests send first in place of the messages it sums up.
     */
    compaction: nullish(z.object({ type: z.literal('summarize'), instructions: CompactionInstructions })),
    /**
     * Anthropic's message threads: `create` holds the conversation, its reply included, under the
     * reply's id; `continue` sends only the messages since the reply it names (chat/threads.ts).
     */
    thread: nullish(
      z.discriminatedUnion(
        'type',
        [
          z.object({ type: z.literal('create') }),
          z.object({ type: z.literal('continue'), previous_message_id: z.string().min(1).max(100) }),
        ],
        { error: 'must be a thread of type create or continue' },
      ),
    ),
    /**
     * Anthropic's automatic prompt caching: a breakpoint on the last block of the request, which moves
     * forward as the conversation grows (what its thread helper's `cache_control` sends each turn).
     */
    cache_control: nullish(CacheControl),
    /** Priority capacity if there is some (`auto`): the service asks none, so both are standard capacity. */
    service_tier: nullish(z.enum(['auto', 'standard_only'])),
    /**
     * Where the model runs: `us`, only in the US, which only Anthropic's own API promises (so routing
     * keeps to its models), at its price for it; `global`, anywhere.
     */
    inference_geo: nullish(z.enum(['global', 'us'], { error: 'must be global or us' })),
    /** Anthropic's fast mode costs more than the catalogue lists, and is refused by name. */
    speed: nullish(
      z.literal('standard', {
        error: 'only standard is supported: fast mode costs otherwise than the catalogue lists',
      }),
    ),
    /**
     * Anthropic's cache diagnostics: the reply is told why the prompt cache could not reuse the prefix of
     * the request `previous_message_id` answered (null: none yet, only this request's prompt is kept).
     */
    diagnostics: nullish(z.object({ previous_message_id: nullish(z.string().min(1).max(100)) }).strict()),
    /** The Space, when an organization token sends (a Space key needs none). */
    app_id: nullish(UuidInput),
  })
  // A field this service cannot honour is refused by its name, never dropped without a word.
  .strict();
export type AnthropicMessagesBody = z.infer<typeof AnthropicMessagesBody>;
/** A tool of an Anthropic request other than an MCP server's toolset. */
export type AnthropicTool = z.output<typeof AnthropicTool>;
/** An Anthropic request with its MCP servers' toolsets apart from its tools (chat/messagesRequest.ts). */
export type AnthropicPlainBody = Omit<z.output<typeof AnthropicMessagesBody>, 'tools'> & { tools?: AnthropicTool[] };

/**
 * A request that continues a thread: the messages since the reply it names, none after a reply that
 * handed the turn back (a pause or a compaction), which the model goes on from.
 */
export const AnthropicContinueBody = AnthropicMessagesBody.extend({ messages: AnthropicMessages });

/** `POST /v1/messages/count_tokens`: the same request without what only sending needs. */
export const AnthropicCountBody = AnthropicMessagesBody.omit({
  max_tokens: true,
  stream: true,
  thread: true,
  diagnostics: true,
}).extend({
  max_tokens: MaxTokens.optional(),
});

// ---------------------------------------------------------------- OpenAI's Responses API

const ResponsesText = z.string().max(20 * 1024 * 1024);
/** The parts of a message's content; output parts come back when a client sends earlier turns again. */
const ResponsesPart = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('input_text'), text: ResponsesText }),
    z.object({ type: z.literal('output_text'), text: ResponsesText, annotations: z.array(z.unknown()).optional() }),
    z.object({ type: z.literal('refusal'), refusal: ResponsesText }),
    z.object({
      type: z.literal('input_image'),
      image_url: ResponsesText,
      detail: z.enum(['auto', 'low', 'high']).optional(),
    }),
    z.object({ type: z.literal('input_file'), file_data: PdfData, filename: z.string().max(1000).optional() }),
  ],
  { error: 'must be a part of type input_text, output_text, refusal, input_image or input_file' },
);

/** OpenAI's web search, which its reasoning models run at OpenAI. */
export const OPENAI_WEB_SEARCH = [
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
] as const;

/** OpenAI's other tools that run at OpenAI (file search, code, images, computer use). */
export const OPENAI_OTHER_HOSTED_TOOLS = [
  'file_search',
  'code_interpreter',
  'image_generation',
  'computer_use_preview',
] as const;

/** A pick of an MCP server's tools (OpenAI's filter): by name, and by whether they change nothing. */
const McpToolFilter = z.strictObject({
  tool_names: nullish(z.array(z.string().max(200)).max(1000)),
  read_only: nullish(z.boolean()),
});

/**
 * A remote MCP server whose tools the model may call (OpenAI's `mcp` tool): the service connects to
 * it over MCP's Streamable HTTP with the headers and authorization given, and runs the calls, for any
 * model of a Space, each after the client's approval where `require_approval` asks it (always, unless
 * it says otherwise, as at OpenAI). OpenAI's connectors and tunnels reach only from OpenAI.
 */
const ResponsesMcpTool = z
  .object({
    type: z.literal('mcp'),
    server_label: z.string().min(1).max(64),
    server_url: nullish(
      z.url({ protocol: /^https?$/, error: 'must be the http or https address of an MCP server' }).max(2000),
    ),
    connector_id: nullish(z.string().max(200)),
    tunnel_id: nullish(z.string().max(200)),
    headers: nullish(z.record(z.string().max(200), z.string().max(10_000))),
    authorization: nullish(z.string().min(1).max(10_000)),
    allowed_tools: nullish(z.union([z.array(z.string().max(200)).max(1000), McpToolFilter])),
    require_approval: nullish(
      z.union([
        z.enum(['always', 'never']),
        z.strictObject({ always: nullish(McpToolFilter), never: nullish(McpToolFilter) }),
      ]),
    ),
    server_description: nullish(z.string().max(10_000)),
    defer_loading: nullish(z.boolean()),
    allowed_callers: nullish(z.array(z.enum(['direct', 'programmatic'])).max(2)),
  })
  .check((ctx) => {
    const tool = ctx.value;
    if (tool.connector_id || tool.tunnel_id)
      ctx.issues.push({
        code: 'custom',
        input: tool,
        path: [tool.connector_id ? 'connector_id' : 'tunnel_id'],
        message:
          "cannot be served here: OpenAI's connectors and tunnels reach only from OpenAI; give the server's own address as server_url",
      });
    else if (!tool.server_url)
      ctx.issues.push({ code: 'custom', input: tool, path: ['server_url'], message: 'is required' });
  });

const ResponsesToolName = z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . or -');

const ResponsesFunctionTool = z.object({
  type: z.literal('function'),
  name: ResponsesToolName,
  description: nullish(ToolDescription),
  parameters: nullish(z.record(z.string(), z.unknown())),
  strict: nullish(z.boolean()),
  /** Left out of the prompt until OpenAI's tool search loads it (given to a model here from the start). */
  defer_loading: nullish(z.boolean()),
});
const ResponsesCustomTool = z.object({
  type: z.literal('custom'),
  name: ResponsesToolName,
  description: nullish(ToolDescription),
  format: nullish(
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('text') }),
      z.object({
        type: z.literal('grammar'),
        syntax: z.enum(['lark', 'regex']),
        definition: z.string().max(100_000),
      }),
    ]),
  ),
});
/** Functions and custom tools grouped under a name (Codex groups an MCP server's tools so). */
const ResponsesNamespaceTool = z.object({
  type: z.literal('namespace'),
  name: ResponsesToolName,
  description: nullish(ToolDescription),
  tools: z
    .array(
      z.discriminatedUnion('type', [ResponsesFunctionTool, ResponsesCustomTool], {
        error: 'must be a function or a custom tool',
      }),
    )
    .max(128),
  defer_loading: nullish(z.boolean()),
});

/**
 * The model's reasoning before a turn, as a client sends it back (Codex, and OpenAI's SDKs with `store`
 * false): its summary, and the `encrypted_content` this service gave it, which carries an Anthropic
 * model's signed thinking. Reasoning another service gave is read as nothing.
 */
const ResponsesReasoning = z.object({
  type: z.literal('reasoning'),
  id: z.string().max(200).optional(),
  status: z.string().max(40).optional(),
  summary: z.array(z.object({ type: z.literal('summary_text'), text: ResponsesText })).max(1000),
  content: nullish(z.array(z.object({ type: z.enum(['reasoning_text', 'text']), text: ResponsesText })).max(1000)),
  encrypted_content: nullish(ResponsesText),
});

/** What a tool search's call and its output both carry (no `call_id` when OpenAI ran the search). */
const ToolSearchItem = {
  id: nullish(z.string().max(200)),
  status: nullish(z.string().max(40)),
  call_id: nullish(z.string().min(1).max(200)),
  execution: nullish(z.enum(['server', 'client'])),
};

/**
 * One item of a Responses request's input: a message, the model's reasoning, a function call it made,
 * or its output.
 */
export const ResponsesItem = z.union([
  z.object({
    type: z.literal('message').optional(),
    id: z.string().max(200).optional(),
    status: z.string().max(40).optional(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([ResponsesText, z.array(ResponsesPart).max(1000)]),
  }),
  z.object({
    type: z.literal('function_call'),
    id: z.string().max(200).optional(),
    status: z.string().max(40).optional(),
    call_id: z.string().min(1).max(200),
    name: z.string().min(1).max(64),
    /** The namespace of the tool called, for a tool of a namespace. */
    namespace: z.string().min(1).max(64).optional(),
    arguments: ResponsesText,
  }),
  z.object({
    type: z.literal('function_call_output'),
    id: z.string().max(200).optional(),
    status: z.string().max(40).optional(),
    call_id: z.string().min(1).max(200),
    output: z.union([ResponsesText, z.array(ResponsesPart).max(1000)]),
  }),
  // A custom tool's call (its input free text, as Codex's apply_patch takes a patch), and its output.
  z.object({
    type: z.literal('custom_tool_call'),
    id: z.string().max(200).optional(),
    status: z.string().max(40).optional(),
    call_id: z.string().min(1).max(200),
    name: z.string().min(1).max(64),
    /** The namespace of the tool called, for a tool of a namespace. */
    namespace: z.string().min(1).max(64).optional(),
    input: ResponsesText,
  }),
  z.object({
    type: z.literal('custom_tool_call_output'),
    id: z.string().max(200).optional(),
    status: z.string().max(40).optional(),
    call_id: z.string().min(1).max(200),
    output: z.union([ResponsesText, z.array(ResponsesPart).max(1000)]),
  }),
  // OpenAI's shell tool's call, run on the client's computer, and what each of its commands gave.
  z.object({
    type: z.literal('shell_call'),
    id: nullish(z.string().max(200)),
    status: nullish(z.string().max(40)),
    call_id: z.string().min(1).max(200),
    action: z.object({
      commands: z.array(ResponsesText).max(1000),
      timeout_ms: nullish(z.int().min(0)),
      max_output_length: nullish(z.int().min(0)),
    }),
    environment: nullish(z.object({ type: z.string().max(40) })),
  }),
  z.object({
    type: z.literal('shell_call_output'),
    id: nullish(z.string().max(200)),
    status: nullish(z.string().max(40)),
    call_id: z.string().min(1).max(200),
    max_output_length: nullish(z.int().min(0)),
    output: z
      .array(
        z.object({
          stdout: ResponsesText,
          stderr: ResponsesText,
          outcome: z.discriminatedUnion('type', [
            z.object({ type: z.literal('exit'), exit_code: z.int() }),
            z.object({ type: z.literal('timeout') }),
          ]),
        }),
      )
      .max(1000),
  }),
  // OpenAI's apply_patch tool's call (a file to create, update or delete, with its diff), and how it went.
  z.object({
    type: z.literal('apply_patch_call'),
    id: nullish(z.string().max(200)),
    status: nullish(z.string().max(40)),
    call_id: z.string().min(1).max(200),
    operation: z.discriminatedUnion('type', [
      z.object({
        type: z.enum(['create_file', 'update_file']),
        path: z.string().min(1).max(4096),
        diff: ResponsesText,
      }),
      z.object({ type: z.literal('delete_file'), path: z.string().min(1).max(4096) }),
    ]),
  }),
  z.object({
    type: z.literal('apply_patch_call_output'),
    id: nullish(z.string().max(200)),
    status: z.enum(['completed', 'failed']),
    call_id: z.string().min(1).max(200),
    output: nullish(ResponsesText),
  }),
  // A search of the client's tool search (its `execution` is client) and the tools it loaded, which
  // the model may call from then on.
  z.object({
    type: z.literal('tool_search_call'),
    ...ToolSearchItem,
    arguments: z.union([ResponsesText, z.record(z.string(), z.unknown())]),
  }),
  z.object({
    type: z.literal('tool_search_output'),
    ...ToolSearchItem,
    tools: z
      .array(
        z.discriminatedUnion('type', [ResponsesFunctionTool, ResponsesCustomTool, ResponsesNamespaceTool], {
          error: 'must be a function, a custom tool or a namespace of them',
        }),
      )
      .max(128),
  }),
  ResponsesReasoning,
  // A web search an OpenAI model ran: it goes back to the model in the reasoning item this service gave
  // (carriedThinking.ts), where it sits among that model's reasoning, so the item itself is read as nothing.
  z.object({
    type: z.literal('web_search_call'),
    id: z.string().max(200).optional(),
    status: z.string().max(40).optional(),
    action: z.record(z.string(), z.unknown()).optional(),
  }),
  // A conversation's summary, which stands for the items before it (chat/compaction.ts).
  z.object({
    type: z.literal('compaction'),
    id: nullish(z.string().max(200)),
    encrypted_content: ResponsesText,
    created_by: nullish(z.string().max(200)),
  }),
  // OpenAI's explicit compaction (Codex's remote compaction): the last input item asks for the
  // conversation to be summed up now, and the answer is the compaction item alone (chat/compaction.ts).
  z.object({ type: z.literal('compaction_trigger'), id: nullish(z.string().max(200)) }),
  // A remote MCP server's items (its `mcp` tool), sent back as this service gave them: its tools as
  // listed, a call the service ran and what it gave back, a call waiting for approval, and the
  // client's answer to one.
  z.object({
    type: z.literal('mcp_list_tools'),
    id: nullish(z.string().max(200)),
    server_label: z.string().min(1).max(64),
    tools: z
      .array(
        z.looseObject({
          name: z.string().max(200),
          description: nullish(z.string().max(100_000)),
          input_schema: nullish(z.record(z.string(), z.unknown())),
          annotations: nullish(z.looseObject({ readOnlyHint: nullish(z.boolean()) })),
        }),
      )
      .max(1000),
    error: nullish(z.string().max(10_000)),
  }),
  z.object({
    type: z.literal('mcp_call'),
    id: z.string().min(1).max(200),
    server_label: z.string().min(1).max(64),
    name: z.string().min(1).max(200),
    arguments: z.string().max(1_000_000),
    output: nullish(z.string().max(10 * 1024 * 1024)),
    error: z.unknown().optional(),
    approval_request_id: nullish(z.string().max(200)),
    status: nullish(z.string().max(40)),
  }),
  z.object({
    type: z.literal('mcp_approval_request'),
    id: z.string().min(1).max(200),
    server_label: z.string().min(1).max(64),
    name: z.string().min(1).max(200),
    arguments: z.string().max(1_000_000),
  }),
  z.object({
    type: z.literal('mcp_approval_response'),
    id: nullish(z.string().max(200)),
    approval_request_id: z.string().min(1).max(200),
    approve: z.boolean(),
    reason: nullish(z.string().max(10_000)),
  }),
]);

/**
 * An item by its id alone, as OpenAI's SDKs send back an earlier output item of a kept response (the
 * AI SDK does so by default, since `store` defaults to true): the Space's kept item takes its place.
 */
const ResponsesItemReference = z.object({
  type: z.literal('item_reference'),
  id: z.string().min(1).max(200),
});

/** OpenAI's web search as a Responses request offers it (Codex does by default), with how far the model may search. */
const ResponsesWebSearchTool = z.object({
  type: z.enum(OPENAI_WEB_SEARCH),
  external_web_access: nullish(z.boolean()),
  filters: nullish(z.object({ allowed_domains: nullish(z.array(z.string().max(253)).max(100)) })),
  search_context_size: nullish(z.enum(['low', 'medium', 'high'])),
  user_location: nullish(z.object({ type: z.literal('approximate'), ...ApproximateLocation })),
});

/**
 * A tool a Responses request offers: a function; a custom tool, whose input is free text (following a
 * grammar, when one is given), as Codex offers apply_patch; a namespace of them; OpenAI's web search,
 * which its reasoning models run at OpenAI; a tool search; or one of OpenAI's other hosted tools, which
 * run only at OpenAI: accepted, and not given to the model, which the reply says.
 */
const ResponsesTool = z.discriminatedUnion(
  'type',
  [
    ResponsesFunctionTool,
    ResponsesCustomTool,
    ResponsesNamespaceTool,
    ResponsesWebSearchTool,
    // OpenAI's tool search: run by the client (`execution: client`, as Codex offers it, its MCP tools
    // deferred behind it), or at OpenAI (the default).
    z.object({
      type: z.literal('tool_search'),
      execution: nullish(z.enum(['server', 'client'])),
      description: nullish(ToolDescription),
      parameters: nullish(z.record(z.string(), z.unknown())),
    }),
    // OpenAI's shell, run on the client's computer (its local environment, the default) or in OpenAI's
    // containers, and its apply_patch, which the client applies.
    z.object({
      type: z.literal('shell'),
      environment: nullish(z.looseObject({ type: z.enum(['local', 'container_auto', 'container_reference']) })),
    }),
    z.object({ type: z.literal('apply_patch') }),
    ResponsesMcpTool,
    z.looseObject({ type: z.enum(OPENAI_OTHER_HOSTED_TOOLS) }),
  ],
  {
    error:
      "must be a function, a custom tool, a namespace of them, the shell or apply_patch, or one of OpenAI's hosted tools",
  },
);

/** How the reply is written (`text.format`): text, any JSON object, or JSON following a schema. */
const ResponsesFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
    description: z.string().max(10_000).optional(),
    schema: z.record(z.string(), z.unknown()),
    strict: nullish(z.boolean()),
  }),
]);

/**
 * What a Responses client may ask to have included: a model's reasoning to send back, carried in its
 * reasoning item's `encrypted_content`; the pages an OpenAI model's web search found.
 */
export const ResponsesIncludable = z.enum([
  'reasoning.encrypted_content',
  'web_search_call.action.sources',
  'message.output_text.logprobs',
]);

/** OpenAI's metadata of an object: at most 16 pairs, keys up to 64 characters, values up to 512. */
const OpenAiMetadata = z
  .record(z.string().max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= 16, 'may have 16 pairs at most');
const ConversationId = z.string().min(1).max(200);
/** Items given to a conversation at once: as many as OpenAI takes. */
const ConversationItems = z
  .array(
    z.union([ResponsesItem, ResponsesItemReference], {
      error: 'must be a message or an item of a Responses input',
    }),
  )
  .max(20, 'may add 20 items at a time');

/** `POST /v1/conversations`: a conversation, with its first items (OpenAI's conversations.create). */
export const OpenAiConversationCreateBody = z.strictObject({
  items: nullish(ConversationItems),
  metadata: nullish(OpenAiMetadata),
  /** The Space, when an organization token sends (a Space key needs none). */
  app_id: nullish(UuidInput),
});

/** `POST /v1/conversations/{id}`: its metadata, replaced (OpenAI's conversations.update). */
export const OpenAiConversationUpdateBody = z.strictObject({ metadata: OpenAiMetadata.nullable() });

/** `POST /v1/conversations/{id}/items`: items added at its end (OpenAI's conversations.items.create). */
export const OpenAiConversationItemsBody = z.strictObject({
  items: ConversationItems.min(1, 'must have at least one item'),
});

/**
 * `POST /v1/responses`: OpenAI's Responses request, routed through a Space like a chat completion. A
 * response is kept in the Space with its input and output items (unless `store` is false, or the
 * Space's privacy level keeps no text), so that an `item_reference` finds an item, a
 * `previous_response_id` continues the response, and GET /v1/responses/{id} reads it back.
 */
export const ResponsesBody = z
  .object({
    model: nullish(z.string().max(300)),
    input: z.union([
      ResponsesText,
      z
        .array(
          z.union([ResponsesItem, ResponsesItemReference], {
            error:
              'must be a message (role user, assistant, system or developer) or an item of type function_call, function_call_output, custom_tool_call, custom_tool_call_output, shell_call, shell_call_output, apply_patch_call, apply_patch_call_output, reasoning, web_search_call, compaction, compaction_trigger or item_reference',
          }),
        )
        .min(1, 'must have at least one item')
        .max(CONVERSATION_TURNS),
    ]),
    instructions: nullish(ResponsesText),
    app_id: nullish(UuidInput),
    stream: nullish(z.boolean()),
    max_output_tokens: nullish(MaxTokens),
    temperature: nullish(z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2')),
    top_p: nullish(z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1')),
    tools: z.array(ResponsesTool).max(128).optional(),
    tool_choice: z
      .union([
        z.enum(['auto', 'none', 'required']),
        z.object({ type: z.enum(['function', 'custom']), name: z.string() }),
      ])
      .optional(),
    /** false: at most one tool call a reply (Codex sends it for models that cannot run tools side by side). */
    parallel_tool_calls: nullish(z.boolean()),
    /** How many times the model may use a built-in tool, here its web search: held wherever the search runs. */
    max_tool_calls: nullish(z.number().int('must be a whole number').min(0, 'must be 0 or more')),
    text: nullish(z.object({ format: ResponsesFormat.optional(), verbosity: nullish(Verbosity) })),
    reasoning: nullish(
      z.object({
        effort: nullish(ReasoningEffort),
        summary: nullish(z.enum(['auto', 'concise', 'detailed'])),
      }),
    ),
    include: z.array(ResponsesIncludable).max(10).optional(),
    /** The stream's events padded so that their sizes do not tell the tokens' (as on Chat Completions). */
    stream_options: nullish(z.strictObject({ include_obfuscation: nullish(z.boolean()) })),
    /** false: the response is not kept (OpenAI's default, true, keeps it for an item_reference or to continue). */
    store: nullish(z.boolean()),
    /**
     * true: answered at once with the response `queued`, which runs on whatever the client does; its
     * client reads it back (GET /v1/responses/{id}) until it is done, or cancels it (chat/backgroundResponses.ts).
     */
    background: nullish(z.boolean()),
    /** A kept response this one continues: its input and output come before this input. */
    previous_response_id: nullish(z.string().min(1).max(200)),
    /**
     * The Space's conversation (OpenAI's Conversations API) the response belongs to: its items are read
     * before the input, and the input and output are added to it once answered (chat/openAiConversations.ts).
     */
    conversation: nullish(z.union([ConversationId, z.object({ id: ConversationId })])),
    metadata: nullish(OpenAiMetadata),
    /**
     * What Codex says of itself (its version; the turn, as JSON of a few kilobytes since Codex 0.171);
     * kept with nothing else, as `metadata`.
     */
    client_metadata: nullish(z.record(z.string().max(64), z.string().max(65_536))),
    user: nullish(z.string().max(256)),
    /**
     * OpenAI's server-side compaction: a conversation longer than `compact_threshold` tokens (80% of the
     * model's context window when none is given) is summed up by a model of the Space before the reply,
     * which goes on from the summary; the answer's first item carries it (chat/compaction.ts).
     */
    /**
     * `auto`: a conversation longer than the model reads loses its earliest turns until it fits, as
     * OpenAI truncates one; `disabled` (the default): it is refused.
     */
    truncation: nullish(z.enum(['auto', 'disabled'])),
    /**
     * How many likeliest tokens the reply's text reports beside each of its own, when `include` asks
     * for `message.output_text.logprobs` (token probabilities, which only some models report).
     */
    top_logprobs: nullish(z.int().min(0, 'must be between 0 and 20').max(20, 'must be between 0 and 20')),
    /**
     * OpenAI's reusable prompts, as the organization keeps them here: one of its saved prompts (by its
     * id) before the instructions, its `{{name}}` placeholders filled from `variables` (chat/savedPrompts.ts).
     */
    prompt: nullish(
      z.strictObject({
        id: z.string().min(1).max(200),
        version: nullish(z.string().max(100)),
        variables: nullish(
          z.record(
            z.string().regex(/^[A-Za-z_][\w-]{0,99}$/, 'must be a letter or _, then up to 99 letters, digits, _ or -'),
            z.union([ResponsesText, z.object({ type: z.literal('input_text'), text: ResponsesText })], {
              error: 'must be text (a string or an input_text): a saved prompt here is text',
            }),
          ),
        ),
      }),
    ),
    context_management: nullish(
      z
        .array(
          z.strictObject({
            type: z.literal('compaction', 'must be compaction, the only kind of context management there is'),
            compact_threshold: nullish(z.number().int('must be a whole number').min(1, 'must be 1 or more')),
          }),
        )
        .max(1, 'takes one compaction entry'),
    ),
    ...OPENAI_HINTS,
  })
  // A field this service cannot honour is refused by its name, never dropped without a word.
  .strict();
export type ResponsesBody = z.infer<typeof ResponsesBody>;

/**
 * `POST /v1/responses/input_tokens` (OpenAI's responses.inputTokens.count): what a response would be
 * asked, without what shapes only its answer.
 */
export const ResponsesCountBody = ResponsesBody.pick({
  model: true,
  input: true,
  instructions: true,
  prompt: true,
  truncation: true,
  app_id: true,
  tools: true,
  tool_choice: true,
  parallel_tool_calls: true,
  text: true,
  reasoning: true,
  previous_response_id: true,
}).strict();

/**
 * `POST /v1/responses/compact` (OpenAI's responses.compact): a conversation, given as input items or as
 * the kept response it ended with, to be summed up by a model of the Space (chat/compaction.ts).
 */
export const ResponsesCompactBody = ResponsesBody.pick({
  model: true,
  instructions: true,
  app_id: true,
  previous_response_id: true,
  prompt_cache_key: true,
  safety_identifier: true,
  service_tier: true,
})
  .extend({ input: ResponsesBody.shape.input.nullish() })
  .strict();
