// The lint and audit jobs as the handlers module of the CLI's pool (pool.ts); the studio runs the
// same jobs in its studio pool. This module is the worker thread's composition root: its bridges
// come from the process's configuration.
import { bridgesFromConfig } from '../bridges.ts';
import { config } from '../config.ts';
import { lintHandlers } from './jobs.ts';

export const handlers = lintHandlers(bridgesFromConfig(config()));
