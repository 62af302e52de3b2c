// A kept Responses answer read back or deleted, as OpenAI's SDKs do with `responses.retrieve`,
// `responses.inputItems.list` and `responses.delete`: the response as it was answered, and the input
// items it was given (its own, as kept: each item_reference read, a text as the user's message).
// A Space key reaches its own Space's responses; an organization token, any of its Spaces'.
import type { z } from 'zod';
import type { ResponsesIncludable } from '../../api/schemas';
import type { Database } from '../db';
import type { Caller } from '../domain/caller';
import { forgetResponse, keptOutputItems, keptResponse, KEPT_WHILE, type ReadResponse } from '../domain/responseItems';
import { invalid, Problem } from '../problem';

/** What a client may ask to have included when it reads a response back. */
export type Included = z.output<typeof ResponsesIncludable>;

type Item = Record<string, unknown>;

const notKept = (caller: Caller, id: string) =>
  new Problem(
    404,
    `The response ${id} is not kept ${caller.appId ? 'by this Space' : 'in this organization'}: a Space keeps its responses ${KEPT_WHILE}.`,
  );

function found(db: Database, caller: Caller, id: string): ReadResponse {
  const kept = keptResponse(db, caller.orgId, caller.appId, id);
  if (!kept) throw notKept(caller, id);
  return kept;
}

/** A reasoning item without the thinking it carries back, unless the client asked for it. */
export const asIncluded = (item: Item, include: readonly Included[]): Item =>
  item.type === 'reasoning' && !include.includes('reasoning.encrypted_content')
    ? { ...item, encrypted_content: undefined }
    : item;

/**
 * The response as answered. Asked to include `reasoning.encrypted_content`, its output items are those
 * the Space kept, which carry it whether or not the answer did.
 */
export function readResponse(db: Database, caller: Caller, id: string, include: readonly Included[]): Item {
  const kept = found(db, caller, id);
  if (kept.answer === null)
    throw new Problem(
      404,
      `The response ${id} was kept before this service kept answers: it can be continued with previous_response_id, not read back.`,
    );
  const answer = JSON.parse(kept.answer) as Item;
  if (!include.includes('reasoning.encrypted_content')) return answer;
  return { ...answer, output: keptOutputItems(db, kept.requestId).map((item) => JSON.parse(item) as Item) };
}

/**
 * An input item as OpenAI lists it: with an id (made from the response's and its place when the client
 * sent none), a message's text as its one content part.
 */
export function listed(item: Item, id: string, include: readonly Included[]): Item {
  if (!('role' in item)) return asIncluded({ ...item, id: item.id ?? id }, include);
  const assistant = item.role === 'assistant';
  const content =
    typeof item.content === 'string'
      ? [
          assistant
            ? { type: 'output_text', text: item.content, annotations: [] }
            : { type: 'input_text', text: item.content },
        ]
      : item.content;
  return { type: 'message', id: item.id ?? `msg_${id}`, role: item.role, status: 'completed', content };
}

/** The response's own input items, newest first unless `order` is asc, `limit` a page from after `after`. */
export function responseInputItems(
  db: Database,
  caller: Caller,
  id: string,
  query: { after?: string; limit?: number; order?: 'asc' | 'desc'; include: readonly Included[] },
): Item {
  const kept = found(db, caller, id);
  const own = (JSON.parse(kept.input) as Item[]).map((item, n) =>
    listed(item, `${id.replace(/^resp_/, '')}_in${n}`, query.include),
  );
  return listPage(own, query, `an input item of ${id}`);
}

/** What a list of items is asked: a page of `limit` (20 unless told) after `after`, newest first unless `order` is asc. */
export interface PageQuery {
  after?: string;
  limit?: number;
  order?: 'asc' | 'desc';
}

/** A page of items as OpenAI lists them; `after` naming none of them (`what` they are) is refused. */
export function listPage(items: Item[], query: PageQuery, what: string): Item {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  const start = query.after === undefined ? 0 : ordered.findIndex((item) => item.id === query.after) + 1;
  if (start === 0 && query.after !== undefined)
    throw invalid(['query', 'after'], `names ${query.after}, which is not ${what}`);
  const limit = query.limit ?? 20;
  const data = ordered.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < ordered.length,
  };
}

/** Deletes a kept response, its input and its output items (a later item_reference to them is refused). */
export function deleteResponse(db: Database, caller: Caller, id: string): Item {
  if (!forgetResponse(db, caller.orgId, caller.appId, id)) throw notKept(caller, id);
  return { id, object: 'response', deleted: true };
}
