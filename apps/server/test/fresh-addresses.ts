import { randomInt } from 'node:crypto';

/**
 * The first three bytes of an IPv4 /24 that no other test is likely to have used, in this run
 * or an earlier one: a Redis named by TEST_REDIS_URL outlives the run, and the throttles count
 * per address and per /24. Drawn from 11.0.0.0 to 99.255.255.255, ordinary unicast with no
 * range the server treats apart: 5.8 million blocks. Within 10/8's 65,536, tests that each
 * take fifty neighbouring blocks met by chance often enough to fail a run.
 */
export const newIpv4Block = () => [randomInt(11, 100), randomInt(256), randomInt(256)] as const;

/** `newIpv4Block` written as an address prefix, `a.b.c`. */
export const newIpv4BlockPrefix = () => newIpv4Block().join('.');
