// A child process of bench/scale.mjs: `loops` loops that each run the console's heaviest
// reads one after another without pause, until told to stop. A process of its own, as the
// consoles' browsers are: its handling of the reads' answers neither delays the verify
// timings' event loop nor shares its CPU priority (SCALE_LOOPS_NICENESS runs it under `nice`).
// Each read's time is sent back with the count, for the reads' own p95 under the load.
import { performance } from 'node:perf_hooks';

const { base, headers, paths, loops } = JSON.parse(process.argv[2]);
const parentPort = { postMessage: (message) => process.send(message) };
process.on('message', (message) => {
  if (message === 'stop') isLoading = false;
});
let isLoading = true;
let readsDone = 0;
const times = [];
let warmLoops = 0;
const readers = Array.from({ length: loops }, async (_, index) => {
  let isWarm = false;
  while (isLoading) {
    const path = paths[(index + readsDone) % paths.length];
    const startedAt = performance.now();
    const response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    if (isWarm) times.push(performance.now() - startedAt);
    readsDone += 1;
    if (!isWarm) {
      // The loop has its connection and has been answered once: its load is on. The timings
      // start when every loop's is.
      isWarm = true;
      warmLoops += 1;
      if (warmLoops === loops) parentPort.postMessage({ started: true });
    }
  }
});
await Promise.all(readers);
process.send({ readsDone, times }, () => process.disconnect());
