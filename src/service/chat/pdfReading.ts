// How many input tokens a PDF counts before it is sent. Anthropic's and OpenAI's models read a PDF
// twice over, as both vendors publish: the text of each page, and each page as an image. So a PDF counts
// the tokens of its text (the service's tokenizer) and, for each page, an image of it by the vendor's
// rule (imageTokens.ts). Its pages and their text are read on a thread of their own (pdfWorker.ts), and
// each document once: a coding agent sends the same PDF again with every turn.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { invalid } from '../problem';
import { anthropicImageTokens, openaiImageTokens } from './imageTokens';
import {
  PDF_DATA,
  type Body,
  type ChatMessage,
  type ImageRule,
  type PdfPages,
  type PdfReading,
  type PdfReadings,
} from './request';

export interface PdfOrder {
  id: number;
  bytes: Uint8Array;
}

export type PdfAnswer = { id: number; reading: PdfReading } | { id: number; error: string };

/** The thread's file, beside this bundle (dist/service.js and dist/pdfWorker.js). */
const WORKER_FILE = path.join(__dirname, 'pdfWorker.js');
/** How long a document may take to read before the thread is stopped and the request refused. */
const READ_TIMEOUT_MS = 30_000;
/**
 * The memory the reader may take for a document, its heap and its buffers together. A compressed
 * stream can unpack to gigabytes (2.7 MB of PDF to 4 GB, measured), into buffers outside the heap that
 * the thread's own heap limit does not count; so the thread's memory is looked at while it reads.
 */
const MEMORY_LIMIT = 512 * 2 ** 20;
/** How often the reader's memory is looked at while it reads. */
const WATCH_MS = 100;
const TOO_MUCH_MEMORY = 'it takes more memory to read than a PDF may';
/** How many documents' readings are kept (by their SHA-256), for the turns that send them again. */
const KEPT = 32;
/**
 * How long a document's refusal is kept: an agent sends the whole conversation again each turn, and a
 * document that held the reader for 30 seconds would hold it again, and every PDF waiting behind it.
 */
const REFUSAL_KEPT_MS = 5 * 60_000;
/** The pixels of a page's image for each of its points: 144 dots an inch, sharper than either vendor keeps. */
const PIXELS_PER_POINT = 2;

/** A PDF in a request: its base64 data, its name if it has one, and where it is for an error to say. */
interface PdfPlace {
  data: string;
  name: string | undefined;
  loc: Array<string | number>;
}

/**
 * Every PDF the messages carry, in order: a user's or a tool's file part (OpenAI's `file`, which
 * Anthropic's `document` and the Responses API's `input_file` become here), and a page an Anthropic
 * model's web fetch read, sent back in its turn.
 */
export function pdfsIn(messages: readonly ChatMessage[]): PdfPlace[] {
  const found: PdfPlace[] = [];
  messages.forEach((m, i) => {
    if (Array.isArray(m.content))
      m.content.forEach((part, j) => {
        const file = part.file as { file_data?: unknown; filename?: unknown } | undefined;
        if (part.type === 'file' && typeof file?.file_data === 'string' && file.file_data.startsWith(PDF_DATA))
          found.push({
            data: file.file_data.slice(PDF_DATA.length),
            name: typeof file.filename === 'string' ? file.filename : undefined,
            loc: ['body', 'messages', i, 'content', j],
          });
      });
    for (const use of ('webTools' in m && m.webTools) || [])
      if (use.name === 'web_fetch' && !('error_code' in use.results) && use.results.content.source.type === 'base64')
        found.push({ data: use.results.content.source.data, name: use.results.url, loc: ['body', 'messages', i] });
  });
  return found;
}

/**
 * Reads every PDF of a request (its messages', and the files attached to a playground prompt) before it
 * is prepared, which counts them (pdfCount). A PDF that cannot be read is refused in words: a model
 * could not read it either, and it would be billed for trying.
 */
export async function readPdfs(body: Body): Promise<PdfReadings | undefined> {
  const places = [
    ...(body.files ?? []).flatMap((url, i) =>
      url.startsWith(PDF_DATA)
        ? [{ data: url.slice(PDF_DATA.length), name: undefined, loc: ['body', 'files', i] }]
        : [],
    ),
    ...pdfsIn(body.completion?.messages ?? []),
  ];
  if (places.length === 0 || !existsSync(WORKER_FILE)) return undefined;
  const readings = new Map<string, PdfReading>();
  for (const place of places) {
    if (readings.has(place.data)) continue;
    try {
      readings.set(place.data, await reading(place.data));
    } catch (error) {
      const which = place.name ? `The PDF ${place.name}` : 'This PDF';
      throw invalid(place.loc, `${which} cannot be read: ${(error as Error).message}.`, 'pdf_unreadable');
    }
  }
  return readings;
}

/**
 * What the messages' PDFs add to a prompt: their text's tokens and characters, and an image of each
 * page by the vendor's rule; and their pages, which some models read only so many of (routing.ts).
 * The text of pages not read in time counts as the read pages' average. A PDF with no reading (one of
 * a request not read first, such as a cost estimate's) adds nothing.
 */
export function pdfCount(
  messages: readonly ChatMessage[],
  readings: PdfReadings | undefined,
  rule: ImageRule,
  tokensOf: (text: string) => number,
): { tokens: number; chars: number; pages: PdfPages } {
  let tokens = 0;
  let chars = 0;
  const counted: PdfReading[] = [];
  for (const { data } of readings ? pdfsIn(messages) : []) {
    const read = readings!.get(data);
    if (!read) continue;
    counted.push(read);
    const scale = read.pagesRead > 0 ? read.pages.length / read.pagesRead : 0;
    tokens += Math.ceil(tokensOf(read.text) * scale);
    chars += Math.ceil(read.text.length * scale);
    for (const { width, height } of read.pages) {
      const image = { width: width * PIXELS_PER_POINT, height: height * PIXELS_PER_POINT };
      tokens += rule === 'anthropic' ? anthropicImageTokens(image) : openaiImageTokens(image);
    }
  }
  return { tokens, chars, pages: pdfPagesOf(counted) };
}

/** The pages of these PDFs, all together and of the longest. */
export function pdfPagesOf(readings: Iterable<PdfReading>): PdfPages {
  const lengths = [...readings].map((read) => read.pages.length);
  return { total: lengths.reduce((sum, n) => sum + n, 0), longest: Math.max(0, ...lengths) };
}

/**
 * Readings of the last documents read, by their SHA-256: the same one is read once. A refusal is kept
 * for a while (until then), unless the reader itself failed: then the next request reads it again.
 */
const kept = new Map<string, { reading: Promise<PdfReading>; until: number }>();

function reading(data: string): Promise<PdfReading> {
  const key = createHash('sha256').update(data).digest('base64');
  let entry = kept.get(key);
  if (entry) kept.delete(key);
  if (!entry || entry.until < Date.now()) {
    const read = reader.read(Buffer.from(data, 'base64'));
    const made = { reading: read, until: Infinity };
    read.catch((error: unknown) => {
      if (error instanceof ReaderLost) {
        if (kept.get(key) === made) kept.delete(key);
      } else made.until = Date.now() + REFUSAL_KEPT_MS;
    });
    entry = made;
  }
  kept.set(key, entry);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return entry.reading;
}

/** The reader's thread failed or stopped while reading: nothing is known of the document. */
class ReaderLost extends Error {}

/** A document to read, and who waits for its reading. */
interface Job {
  bytes: Uint8Array;
  resolve: (reading: PdfReading) => void;
  reject: (error: Error) => void;
}

/**
 * The reader's thread, started on the first PDF. It reads one document at a time, so that one which
 * takes too long or too much memory is known: that one is refused, the thread is stopped, and the
 * documents waiting behind it are read on a new one.
 */
class PdfReader {
  private readonly queue: Job[] = [];
  private current: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  private next = 0;
  private worker: Worker | undefined;
  private watch: NodeJS.Timeout | undefined;

  read(bytes: Uint8Array): Promise<PdfReading> {
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, resolve, reject });
      this.readNext();
    });
  }

  private readNext(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) return;
    const worker = (this.worker ??= this.start());
    const id = this.next++;
    const timer = setTimeout(
      () => this.refuse(new Error(`it took longer than ${READ_TIMEOUT_MS / 1000} seconds to read`)),
      READ_TIMEOUT_MS,
    );
    this.current = { ...job, id, timer };
    worker.postMessage({ id, bytes: job.bytes } satisfies PdfOrder);
    this.watchMemory();
  }

  private start(): Worker {
    // A document can be built to take gigabytes to read: the thread is stopped at a limit instead.
    const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: MEMORY_LIMIT / 2 ** 20 } });
    worker.unref();
    worker.on('message', (answer: PdfAnswer) => {
      const job = this.current;
      if (job?.id !== answer.id) return;
      this.current = undefined;
      clearTimeout(job.timer);
      if ('reading' in answer) job.resolve(answer.reading);
      else job.reject(new Error(answer.error));
      this.readNext();
    });
    // Only the thread that reads now speaks for the document: one stopped before has nothing left.
    worker.on('error', (error: Error & { code?: string }) => {
      if (worker === this.worker)
        this.refuse(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error(TOO_MUCH_MEMORY) : new ReaderLost('its reader failed'),
        );
    });
    worker.on('exit', () => {
      if (worker === this.worker) this.refuse(new ReaderLost('its reader stopped'));
    });
    return worker;
  }

  /**
   * While it reads, stops the thread once its heap and buffers pass the limit (on Node 22.16 and
   * later, which can look at a thread's memory from outside; before, only its heap is held).
   */
  private watchMemory(): void {
    if (typeof this.worker?.getHeapStatistics !== 'function') return;
    this.watch ??= setInterval(() => {
      const worker = this.worker;
      if (!this.current || !worker) {
        clearInterval(this.watch);
        this.watch = undefined;
        return;
      }
      worker.getHeapStatistics().then(
        (heap) => {
          if (worker === this.worker && heap.used_heap_size + heap.external_memory > MEMORY_LIMIT)
            this.refuse(new Error(TOO_MUCH_MEMORY));
        },
        () => undefined, // It has just ended: its exit says so.
      );
    }, WATCH_MS).unref();
  }

  /** Refuses the document being read, saying why, and stops its thread; the next starts a new one. */
  private refuse(why: Error): void {
    const job = this.current;
    const worker = this.worker;
    this.current = undefined;
    this.worker = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.reject(why);
    }
    void worker?.terminate();
    this.readNext();
  }
}

const reader = new PdfReader();
