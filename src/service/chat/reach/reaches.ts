// Which way reaches a model, in order: test models, then hosted providers (with a key for the model's
// provider), then model servers (on this computer, or the --upstream URLs).
import type { ModelRecord } from '../../../api/schemas';
import type { Database } from '../../db';
import type { ModelServerOptions } from '../../modelServers';
import { providerCooldown } from '../../providers/cooldown';
import { providerKeys } from '../../providers/keys';
import { HostedProviders } from './hostedProviders';
import { ModelServers } from './modelServers';
import type { ModelReach } from './reach';
import { TestModels } from './testModels';

/** How the service was started, as far as reaching models goes. */
export interface EngineOptions {
  /** Where a refresh looks for model servers (see ../../modelServers.ts). */
  servers: ModelServerOptions;
  /** Pause between streamed pieces of a test model's reply, to behave like a real model. */
  streamDelayMs: number;
  /** How long a hosted provider may take to its first token (five times that for a reply not streamed). */
  firstTokenTimeoutMs?: number;
  /** How often a stream says its conversation is still being summed up (http/chatRoute.ts). */
  compactingEveryMs?: number;
}

export class Reaches {
  private readonly all: ModelReach[];

  constructor(db: Database, options: EngineOptions) {
    this.all = [
      new TestModels(options.streamDelayMs),
      new HostedProviders(providerKeys, providerCooldown, options.firstTokenTimeoutMs ?? 60_000),
      new ModelServers(db),
    ];
  }

  for(model: ModelRecord): ModelReach {
    return this.all.find((reach) => reach.reaches(model))!;
  }
}
