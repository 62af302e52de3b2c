// The calendar day the tests run on, for what changes by the day: which models their providers have
// retired (providers/retirements.ts) and which prices hold. Pinned so that a retirement the catalogue
// already announces does not change the tests' answers on its day; the catalogue's own tests name
// their days. Loaded before every suite (.mocharc.json, the UI tests' command, the host tests' runners),
// and handed down to the services and editors they start through the environment.
export const TEST_DAY = '2026-12-01';

process.env.LLM_SPACES_TODAY ??= TEST_DAY;
