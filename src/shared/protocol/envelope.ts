// The envelope every webview's messages travel in.
//
// A webview says `ready` once its script runs, then makes calls: `{type: 'call', id, method, params}`.
// The host parses every message with the schemas of its webview's module (a webview is untrusted input)
// and answers each call exactly once with `{type: 'reply', id, ok, ...}`. Between calls the host may post
// events. This folder is the only code both sides import.
import { z } from 'zod';
import type { Rules } from '../rules';

export const Ready = z.object({ type: z.literal('ready') });
export const Call = z.object({
  type: z.literal('call'),
  id: z.int().min(0),
  method: z.string().max(40),
  params: z.unknown(),
});
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
export const rulesOf = (schema: z.ZodType): Rules =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Rules;

export type Reply =
  { type: 'reply'; id: number; ok: true; result: unknown } | { type: 'reply'; id: number; ok: false; error: CallError };
export type ToWebview<E> = Reply | { type: 'event'; event: E };

/** The parameter schema of each method a webview may call. */
export type Calls = Record<string, z.ZodType>;
/** Host-side handlers: the call's parsed params and its id (streamed events name the call they belong to). */
export type Handlers<C extends Calls, R extends { [K in keyof C]: unknown }> = {
  [K in keyof C]: (params: z.infer<C[K]>, callId: number) => Promise<R[K]>;
};

/** An id a webview names (a Space, a conversation). */
export const Id = z.string().min(1).max(100);
/** A name a person gives (a conversation). */
export const Name = z.string().trim().min(1, 'must be 1 to 200 characters').max(200, 'must be 1 to 200 characters');
