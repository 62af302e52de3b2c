// Benchmarks in the browser, on the real workbench: the playground's latency from the first streamed
// piece reaching the host to the text painted in the webview, and the longest frame gap while a
// 10,000-token reply streams in (a frozen panel would show a long gap).
import type { FrameLocator, Page } from 'playwright-core';
import { openWorkbench, runCommand } from '../ui/workbench';
import { median } from './stats';

const webview = (page: Page): FrameLocator =>
  page.locator('iframe.webview.ready').last().contentFrame().frameLocator('#active-frame');

async function send(frame: FrameLocator, prompt: string, turns: number, timeoutMs: number): Promise<void> {
  const box = frame.locator('[data-path="prompt"] textarea');
  await box.fill(prompt);
  await box.press('Control+Enter');
  await frame
    .locator('.turn .meta .figures')
    .nth(turns - 1)
    .waitFor({ timeout: timeoutMs });
}

const bodyNumber = (frame: FrameLocator, key: string) =>
  frame
    .locator('body')
    .evaluate((b, k) => Number((b as unknown as { dataset: Record<string, string> }).dataset[k]), key);

export interface UiFigures {
  firstPaintMs: number;
  firstPaintRuns: number[];
  longReplyTokens: number;
  longReplySeconds: number;
  longestFrameGapMs: number;
}

export async function playgroundFigures(runs = 7): Promise<UiFigures> {
  const wb = await openWorkbench();
  try {
    const { page } = wb;
    await runCommand(page, 'LLM Spaces: Open Playground');
    const frame = webview(page);
    const model = frame.locator('[data-path="model"] input');
    await model.waitFor({ timeout: 60_000 });
    // The catalogue has arrived once the model list has its options.
    await frame
      .locator('[data-path="model"] vscode-option[value="test/echo"]')
      .waitFor({ state: 'attached', timeout: 60_000 });
    await model.click();
    await model.fill('test/echo');
    await model.press('ArrowDown');
    await model.press('Enter');
    // The starter Space answers with at most 1,024 tokens by default; the long reply needs more.
    await frame.locator('vscode-collapsible.options').click();
    const maxTokens = frame.locator('[data-path="max_tokens"] input');
    await maxTokens.fill('16000');
    await maxTokens.press('Tab');
    const firstPaint: number[] = [];
    for (let i = 1; i <= runs; i++) {
      await send(frame, `Benchmark run ${i}: a short reply, painted as soon as its first piece arrives.`, i, 30_000);
      firstPaint.push(await bodyNumber(frame, 'firstPaintMs'));
    }
    // About 10,000 tokens of varied prose; test/echo streams it back four tokens at a time.
    const words = 'the panel keeps painting while a long reply streams in with code and prose'.split(' ');
    const long = Array.from({ length: 9_800 }, (_, i) => words[i % words.length]).join(' ');
    const started = Date.now();
    await send(frame, long, runs + 1, 300_000);
    const seconds = (Date.now() - started) / 1000;
    const figures = await frame.locator('.turn .meta .figures').last().innerText();
    const tokens = Number(/\((?:[\d,]+) in, ([\d,]+) out\)/.exec(figures)?.[1]?.replace(/,/g, '') ?? Number.NaN);
    await wb.screenshot('20-bench-long-reply');
    return {
      firstPaintMs: median(firstPaint),
      firstPaintRuns: firstPaint,
      longReplyTokens: tokens,
      longReplySeconds: seconds,
      longestFrameGapMs: await bodyNumber(frame, 'maxFrameGapMs'),
    };
  } catch (error) {
    await wb.screenshot('20-bench-failed');
    throw error;
  } finally {
    await wb.close();
  }
}
