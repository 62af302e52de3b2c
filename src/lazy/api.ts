// The API door (src/api/door.ts) from the activation side: the client and the presets' parsers.
import type * as ApiDoor from '../api/door';
import { loadLazy } from './load';

export const api = (): typeof ApiDoor => (loadLazy() as { api: typeof ApiDoor }).api;
