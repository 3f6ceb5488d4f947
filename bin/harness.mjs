#!/usr/bin/env node
// Entry point of `npx harness`: registers tsx so the TypeScript sources run as they are, then hands
// over to server/cli/main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
