#!/usr/bin/env node
import './supported-node.js';
import { semiSpaceRestart } from './semi-space.js';

// Before the program's modules load: `serve` restarts in place (same pid) with its young generation
// pinned, which costs this file and one Node start-up (semi-space.ts).
const restart = semiSpaceRestart(process.argv, process.execArgv, process.env);
if (restart && typeof process.execve === 'function') process.execve(process.execPath, restart, process.env);
await import('./program.js');
