// Setup file of every CLI grading run (grade.config.ts), in the vitest worker, after vitest has
// loaded and before the suite imports `@lab/submission`: locks the realm down with SES exactly as
// the page's grading worker does (site/lib/grading/worker/sandbox.ts). The learner's module is then
// evaluated in a Compartment (submission-module.ts), never imported as a module of the worker.
import { lockdownOnce } from '../../../site/lib/grading/worker/sandbox.ts';

lockdownOnce();
