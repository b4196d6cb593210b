/**
 * The server's layers, checked by `npm test` (lint step): arrows point down only.
 *
 *   app.ts, main.ts, cluster-primary.ts   the composition root: builds everything
 *   modules/<domain>/                     one domain each; never into the root, no cycles
 *   audit/, ownership/, outbox/           what every module shares: the audit trail, owner scoping,
 *                                         writes that queue their webhook deliveries
 *   http/, metrics/, identity/            request plumbing shared by the modules
 *   db/, lib/, events/, config.ts         storage, pure helpers, in-process event hubs
 *   @latchkey/contracts                   schemas shared with the console (below all)
 *
 * `.dependency-cruiser-known-violations.json` lists the arrows that still run back up; each
 * is a debt to pay, and a new one fails the run. Regenerate it only after removing some
 * (`npx depcruise-baseline apps/server/src/main.ts apps/server/src/cluster-primary.ts`).
 */
const root = '^apps/server/src/';
const compositionRoot = `${root}(app|main|cluster-primary)\\.ts$`;
const lowerLayers = `${root}(audit|ownership|outbox|http|metrics|identity|lib|db|events)/|${root}config\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lower-layers-stay-below',
      comment:
        'audit, ownership, outbox, http, metrics, identity, lib, db, events and config serve the modules: they import no module and not the composition root (move the shared piece down instead).',
      severity: 'error',
      from: { path: lowerLayers },
      to: { path: [`${root}modules/`, compositionRoot] },
    },
    {
      name: 'modules-below-the-root',
      comment:
        'A module never imports the composition root: the types it needs from there live in a lower layer.',
      severity: 'error',
      from: { path: `${root}modules/` },
      to: { path: compositionRoot },
    },
    {
      name: 'no-file-cycles',
      comment: 'No file imports itself through others.',
      severity: 'error',
      from: { path: root },
      to: { circular: true },
    },
    {
      name: 'contracts-at-the-bottom',
      comment: 'The shared contracts import nothing of the apps.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^apps/' },
    },
    {
      name: 'console-apart-from-server',
      comment: 'The console shares only the contracts with the server.',
      severity: 'error',
      from: { path: '^apps/console/' },
      to: { path: '^apps/server/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '/test/', 'node_modules'] },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
