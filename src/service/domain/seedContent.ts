// What a new organization starts with, so that every view has something real to show.
import type { Database } from '../db';
import { ORG_PROMPTS } from '../catalogue';
import { createAssistant, createVersion } from './assistants';
import { createConversation } from './conversations';
import { insertSeedPrompt } from './prompts';
import { insertSpace } from './spaces';

export function seedOrganizationContent(db: Database, orgId: string, identity: string): void {
  const space = insertSpace(db, orgId, identity, { name: 'My first Space', describeRouting: true });
  insertSpace(db, orgId, identity, {
    name: 'My first Space (sandbox)',
    description: 'Try changes here before they reach the main Space.',
    sandboxOf: space.id,
  });
  const caller = { orgId, appId: null, identity };
  const assistant = createAssistant(db, space.id, {
    name: 'Code reviewer',
    description: 'Reviews code for bugs and clarity.',
  });
  createVersion(db, caller, space.id, assistant.id, {
    persona: 'A senior engineer who reviews code kindly but thoroughly.',
    instructions: 'Point out bugs first, then naming and structure. Quote the lines you mean.',
    greeting: 'Paste some code and I will review it.',
    writing_style: 'Short bullet points.',
    temperature: 0.2,
    max_tokens: 800,
    published: true,
  });
  createConversation(db, space.id, { name: 'Welcome conversation' });
  ORG_PROMPTS.forEach((p, i) => insertSeedPrompt(db, orgId, false, p, i));
}
