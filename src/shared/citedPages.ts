// The pages a reply cites, as people are shown them: each once, where it is first cited. The built-in
// service keeps them so with a reply's log row; the playground lists them so under a reply it streams.

/** A page on the web a reply cites: its address and its title (the address, when it has none). */
export interface CitedPage {
  url: string;
  title: string;
}

/** Each page once, in the order first cited, with the title it had there. */
export function eachPageOnce(pages: Iterable<CitedPage>): CitedPage[] {
  const seen = new Map<string, CitedPage>();
  for (const page of pages) if (!seen.has(page.url)) seen.set(page.url, page);
  return [...seen.values()];
}
