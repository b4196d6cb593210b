/**
 * The server's layers, checked by `npm test` (lint step): arrows point down only.
 *
 *   app.ts, main.ts, cluster-primary.ts   the composition root: builds everything
 *   modules/<domain>/                     one domain each; never into the root; module
 *                                         folders import each other without a cycle, and
 *                                         only through each other's index.ts
 *   audit/, ownership/, outbox/           what every module shares: the audit trail, owner
 *                                         scoping, writes that queue their webhook deliveries
 *   http/, metrics/, identity/            request plumbing shared by the modules
 *   db/, lib/, events/, config.ts         storage, pure helpers, in-process event hubs
 *   @latchkey/contracts                   schemas shared with the console (below all)
 *
 * There is no list of tolerated violations: an arrow that runs back up fails the run. Move
 * the shared piece down (or into the module that owns it) instead.
 */
const root = '^apps/server/src/';
const compositionRoot = `${root}(app|main|cluster-primary|route-table)\\.ts$`;
const modules = `${root}modules/`;
const sharedPieces = `${root}(audit|ownership|outbox)/`;
const requestPlumbing = `${root}(http|metrics|identity)/`;
const bottom = `${root}(db|lib|events)/|${root}(config|server-asset-paths)\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lower-layers-stay-below',
      comment:
        'audit, ownership, outbox, http, metrics, identity, db, lib, events and config serve the modules: they import no module and not the composition root (move the shared piece down instead).',
      severity: 'error',
      from: { path: [sharedPieces, requestPlumbing, bottom] },
      to: { path: [modules, compositionRoot] },
    },
    {
      name: 'plumbing-below-shared-pieces',
      comment:
        'http, metrics and identity import none of audit, ownership and outbox, which build on them.',
      severity: 'error',
      from: { path: requestPlumbing },
      to: { path: sharedPieces },
    },
    {
      name: 'bottom-layer-at-the-bottom',
      comment:
        'db, lib, events and config import nothing of the server above them (only each other).',
      severity: 'error',
      from: { path: bottom },
      to: { path: [sharedPieces, requestPlumbing] },
    },
    {
      name: 'modules-below-the-root',
      comment:
        'A module never imports the composition root: the types it needs from there live in a lower layer (http/app-dependencies.ts).',
      severity: 'error',
      from: { path: modules },
      to: { path: compositionRoot },
    },
    {
      name: 'modules-meet-through-their-index',
      comment:
        "A module reaches another only through that module's index.ts, which exports what it offers the others; its other files are its own.",
      severity: 'error',
      from: { path: `${modules}([^/]+)/` },
      to: {
        path: modules,
        pathNot: [`${modules}$1/`, `${modules}[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'no-module-cycles',
      comment:
        'Module folders import each other in one direction only: a piece two modules need moves into the one that owns it, or below the modules.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/server/src/modules/[^/]+' },
      to: { path: '^apps/server/src/modules/[^/]+', circular: true },
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
