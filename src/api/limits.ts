// Limits of request fields that the extension checks as the user types, without loading the schemas.
export const PROMPT_TITLE_MAX = 60;
export const PROMPT_DESCRIPTION_MAX = 200;
