// The modules dist/lazy.js takes from dist/extension.js instead of bundling a copy of its own
// (esbuild.mjs reads this table), so each has one set of classes and state: an ApiError thrown in a
// panel is an ApiError to the views, a Declined send is known by instanceof, and a list's count of
// unreadable records is seen by every surface.
import * as errors from './api/errors';
import * as leftOut from './api/leftOut';
import * as declined from './shared/declined';

export const owned = {
  'api/errors': errors,
  'api/leftOut': leftOut,
  'shared/declined': declined,
};
