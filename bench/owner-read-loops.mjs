// A worker thread of bench/scale.mjs: `loops` loops that each run the console's heaviest
// reads one after another without pause, until told to stop. In a thread of its own so the
// verify timings of the main thread are not delayed by this thread's handling of the reads'
// answers: a vendor's program and the console run on different machines, not in one event loop.
import { parentPort, workerData } from 'node:worker_threads';

const { base, headers, paths, loops } = workerData;
let isLoading = true;
let readsDone = 0;
parentPort.on('message', (message) => {
  if (message === 'stop') isLoading = false;
});
let warmLoops = 0;
const readers = Array.from({ length: loops }, async (_, index) => {
  let isWarm = false;
  while (isLoading) {
    const path = paths[(index + readsDone) % paths.length];
    const response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
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
parentPort.postMessage({ readsDone });
