// Preloaded into the Firebase Auth emulator (node --require). The server starts the emulator
// in a process group of its own, so when the server is killed outright (kill -9, an OOM kill)
// nothing stops the emulator: it would linger as an orphan holding the port. Once it is
// reparented, it stops itself the graceful way instead (SIGINT makes firebase-tools export
// its accounts first). Plain CommonJS: it runs in a bare node, without tsx.
'use strict';

const parentPid = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parentPid) return;
  clearInterval(watch);
  // The server held the other end of stdout and stderr: writing there now fails with EPIPE,
  // which must not crash the emulator before it has exported its accounts.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  process.kill(process.pid, 'SIGINT');
}, 500);
watch.unref();
