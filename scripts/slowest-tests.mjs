#!/usr/bin/env node
// The ten slowest test files of the last `npm test`, from what test/support/file-times.ts wrote:
// `.ci/run` prints it at the end, so a run that grows slower says where.
import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? 'test-artifacts/file-times.json';
const times = JSON.parse(readFileSync(path, 'utf8'));
const slowest = times.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
const total = times.reduce((sum, t) => sum + t.seconds, 0);
const width = Math.max(4, ...slowest.map((t) => t.file.length));
const projectWidth = Math.max(7, ...slowest.map((t) => t.project.length));
const row = (file, project, seconds) =>
  `${file.padEnd(width)}  ${project.padEnd(projectWidth)}  ${seconds.padStart(7)}`;
console.log(`\nThe ten slowest of ${times.length} test files (${total.toFixed(0)} s in all):`);
console.log(row('file', 'project', 'seconds'));
for (const t of slowest) console.log(row(t.file, t.project, t.seconds.toFixed(1)));
// postgres-alone runs one file at a time: its seconds are the run's, not shared between workers.
const byProject = Object.groupBy(times, (t) => t.project);
const sums = Object.entries(byProject).map(
  ([p, ts]) => `${p} ${ts.reduce((s, t) => s + t.seconds, 0).toFixed(0)} s`,
);
console.log(`By project: ${sums.join(', ')}.`);
