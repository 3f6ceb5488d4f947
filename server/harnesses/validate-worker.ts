// The validation jobs as the handlers module of an IsolatedPool of their own (the CLI's
// `harness validate`; the studio runs the same jobs in its studio pool). This module is the
// worker thread's composition root: its bridges come from the process's configuration.
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { validationHandlers } from './validate-jobs.ts';

export const handlers = validationHandlers(bridgesFromConfig(config()));
