// dist/lazy.js: what activation does not load, behind two doors (the API's and the panels'), required
// the first time either is used (load.ts).
export * as api from '../api/door';
export * as panels from '../webviews/panels/door';
