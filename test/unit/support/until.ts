// Waiting in a test for what the service does in the background.

/** Waits until `test` holds, for at most `ms`; else fails with `what`. */
export async function until(what: string, test: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await test()); await new Promise((resolve) => setTimeout(resolve, 100)))
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
}
