// The seam between the engine and the models: how a model is reached. Each way (test models, model
// servers on this computer or behind --upstream, hosted providers) says which models it reaches and
// generates a reply for one attempt; the engine (run.ts) retries and fails over around it.
import type { ModelRecord } from '../../../api/schemas';
import type { ChatMessage, Reply, ThinkingPiece, ToolOptions } from '../request';

/** One attempt of one model at a request. */
export interface Generation {
  model: ModelRecord;
  /** The messages as sent: images left out for a model that cannot read them. */
  messages: ChatMessage[];
  /** The text of the last user turn, and the attachments' counts (what test models answer from). */
  prompt: string;
  images: number;
  files: number;
  maxTokens: number;
  temperature: number;
  tools: ToolOptions;
  /** Receives the reply as it is produced, when the client streams. */
  onDelta?: (text: string) => void;
  /**
   * Receives a model's thinking as it is produced (ThinkingPiece: what goes back to it, and reasoning
   * only to show), when the client streams and reads it.
   */
  onThinking?: (piece: ThinkingPiece) => void;
  signal: AbortSignal;
}

export interface ModelReach {
  /** Whether this way reaches the model (the first that does, in reachFor's order, is used). */
  reaches(model: ModelRecord): boolean;
  /** Whether routing should weigh how fast its models answered (chat/latency.ts). */
  readonly measured: boolean;
  generate(generation: Generation): Promise<Reply>;
}

/** An attempt that failed on the model's side: retried and failed over by the Space's policies. */
export class ReachFailure extends Error {
  constructor(
    message: string,
    /** The HTTP status the model's server answered, when it answered. */
    readonly status?: number,
    /** Nothing answered at the server's address. */
    readonly unreachable = false,
  ) {
    super(message);
  }
}
