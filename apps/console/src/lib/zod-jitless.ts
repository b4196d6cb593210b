import { config } from 'zod/v4/core';

/*
 * The site's Content-Security-Policy refuses `eval` (script-src has no 'unsafe-eval'). zod
 * probes `new Function("")` when it builds an object schema, to decide whether to compile a
 * faster parser; the probe is caught, but the browser still reports a `securitypolicyviolation`
 * in every owner's console. jitless skips the probe and takes the interpreted path, which is
 * the path the policy forces anyway. It must be set before any object schema is built, so
 * main.tsx imports this module first; the contracts (and zod) load later, with the pages.
 * Only the console sets it: the server keeps the compiled parsers on its hot path.
 */
config({ jitless: true });
