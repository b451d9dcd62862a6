// Preloaded (--require) into two processes of the broadcast bench, to tell Parley's pacing from the
// simulator's clock. BENCH_WATCH_ROLE=writes (the worker): the moment each Graph request's headers
// are written to the socket, by undici's diagnostics channel, where Parley hands a send to the
// network. BENCH_WATCH_ROLE=pauses (the simulator): its garbage collections and event-loop stalls,
// during which it stamps nothing and after which it stamps what arrived meanwhile at once. Each is
// appended to a file in BENCH_WATCH_DIR every 100 ms (a SIGKILL loses at most that much).
const { appendFileSync } = require('node:fs');
const { PerformanceObserver, performance } = require('node:perf_hooks');
const diagnostics = require('node:diagnostics_channel');

const role = process.env.BENCH_WATCH_ROLE;
const dir = process.env.BENCH_WATCH_DIR;
// A timer every 5 ms that fires this much late was held up by something: a stall worth recording.
const STALL_MS = 15;

if (dir && (role === 'writes' || role === 'pauses')) {
  const file = `${dir}/${role}-${process.pid}.txt`;
  let lines = [];
  const flush = () => {
    if (lines.length === 0) return;
    appendFileSync(file, `${lines.join('\n')}\n`);
    lines = [];
  };
  setInterval(flush, 100).unref();
  process.on('exit', flush);
  if (role === 'writes') {
    diagnostics.subscribe('undici:client:sendHeaders', ({ request }) => {
      if (request.method === 'POST' && request.path.endsWith('/messages')) lines.push(String(Date.now()));
    });
  } else {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const start = performance.timeOrigin + e.startTime;
        lines.push(`${Math.floor(start)} ${Math.ceil(start + e.duration)}`);
      }
    }).observe({ entryTypes: ['gc'] });
    let last = Date.now();
    setInterval(() => {
      const now = Date.now();
      if (now - last > 5 + STALL_MS) lines.push(`${last + 5} ${now}`);
      last = now;
    }, 5).unref();
  }
}
