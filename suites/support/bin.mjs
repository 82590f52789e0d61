#!/usr/bin/env node
// The installed command (`npx social-api-conformance`): loads the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
