// The panels door (src/webviews/panels/door.ts) from the activation side.
import type * as PanelsDoor from '../webviews/panels/door';
import { loadLazy } from './load';

export const panels = (): typeof PanelsDoor => (loadLazy() as { panels: typeof PanelsDoor }).panels;
