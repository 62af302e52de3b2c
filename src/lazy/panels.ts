// The panels door (src/webviews/door.ts) from the activation side.
import type * as PanelsDoor from '../webviews/door';
import { loadLazy } from './load';

export const panels = (): typeof PanelsDoor => (loadLazy() as { panels: typeof PanelsDoor }).panels;
