import { createServer, get, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import {
  assertWebhookUrlAllowed,
  WEBHOOK_HTTPS_REQUIRED,
  WEBHOOK_HTTPS_REQUIRED_OUTSIDE_LOOPBACK,
} from './assert-webhook-url-allowed.ts';
import {
  checkWebhookDestination,
  checkWebhookDestinationWithoutDns,
  classifyAddress,
  DESTINATION_REFUSED,
  destinationPolicyFor,
  guardedLookup,
  type DestinationPolicy,
} from './destination-guard.ts';
import { temporaryDirectoryForTest } from '../../../test/temporary-directory.ts';

/** A resolver that answers from a table, as DNS would (names not in it do not exist). */
function fakeResolver(table: Record<string, string[]>) {
  return async (hostname: string): Promise<LookupAddress[]> => {
    const addresses = table[hostname];
    if (!addresses) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const resolve = fakeResolver({
  'loopback.example': ['127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['93.184.215.14', '10.0.0.5'],
  'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'intranet.example': ['192.168.10.20'],
});
const production: DestinationPolicy = {
  isLoopbackAllowed: false,
  isPrivateNetworkAllowed: false,
  resolve,
};
const development: DestinationPolicy = { ...production, isLoopbackAllowed: true };
const productionWithPrivate: DestinationPolicy = { ...production, isPrivateNetworkAllowed: true };

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'special'],
    ['::', 'special'],
    ['255.255.255.255', 'special'],
    ['224.0.0.1', 'special'],
    ['ff02::1', 'special'],
    ['192.0.2.1', 'special'],
    ['240.0.0.1', 'special'],
    ['64:ff9b::7f00:1', 'special'],
    ['::127.0.0.1', 'special'],
    ['2002:7f00:1::', 'special'],
    ['0x7f.1', 'special'],
    ['127.1', 'special'],
    ['not-an-address', 'special'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('checkWebhookDestination', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://172.20.1.1/hook',
    'https://192.168.0.10:8443/hook',
    'https://100.100.100.100/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://localhost/hook',
    'https://LOCALHOST./hook',
    'https://api.localhost/hook',
    'https://loopback.example/hook',
    'https://metadata.example/hook',
    'https://mixed.example/hook',
    'https://intranet.example/hook',
  ])('refuses %s in production', async (url) => {
    const verdict = await checkWebhookDestination(url, production);
    expect(verdict.isAllowed).toBe(false);
    if (!verdict.isAllowed)
      expect(verdict.reason).toMatch(/^This webhook URL points to a .+, which is not allowed$/);
  });

  it('says what kind of address it refused, never which address', async () => {
    const reasons = await Promise.all(
      [
        'https://127.0.0.1/',
        'https://intranet.example/',
        'https://169.254.169.254/',
        'https://[ff02::1]/',
      ].map(async (url) => {
        const verdict = await checkWebhookDestination(url, production);
        return verdict.isAllowed ? null : verdict.reason;
      }),
    );
    expect(reasons).toEqual([
      'This webhook URL points to a loopback address, which is not allowed',
      'This webhook URL points to a private network address, which is not allowed',
      'This webhook URL points to a link-local address, which is not allowed',
      'This webhook URL points to a reserved or special-purpose address, which is not allowed',
    ]);
  });

  it('accepts public addresses and names whose every address is public', async () => {
    expect(await checkWebhookDestination('https://93.184.215.14/hook', production)).toEqual({
      isAllowed: true,
      addresses: ['93.184.215.14'],
    });
    expect(await checkWebhookDestination('https://public.example/hook', production)).toEqual({
      isAllowed: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
  });

  it('accepts a name that does not resolve yet: delivery checks it again when it connects', async () => {
    expect(await checkWebhookDestination('https://not-yet.example/hook', production)).toEqual({
      isAllowed: true,
      addresses: [],
    });
  });

  it('allows loopback outside production, and nothing else that production refuses', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'http://localhost:3000/hook',
      'https://loopback.example/hook',
    ]) {
      expect((await checkWebhookDestination(url, development)).isAllowed, url).toBe(true);
    }
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/',
      'https://[fe80::1]/',
      'https://intranet.example/',
      'https://mixed.example/',
      'https://0.0.0.0/',
    ]) {
      expect((await checkWebhookDestination(url, development)).isAllowed, url).toBe(false);
    }
  });

  it('allows private ranges with WEBHOOK_ALLOW_PRIVATE_NETWORKS, never link-local or loopback in production', async () => {
    for (const url of [
      'https://10.0.0.1/hook',
      'https://192.168.1.1/hook',
      'https://100.64.1.1/hook',
      'https://[fd00::1]/hook',
      'https://intranet.example/hook',
      'https://mixed.example/hook',
    ]) {
      expect((await checkWebhookDestination(url, productionWithPrivate)).isAllowed, url).toBe(true);
    }
    for (const url of [
      'https://169.254.169.254/',
      'https://metadata.example/',
      'https://127.0.0.1/',
      'https://localhost/',
      'https://[::1]/',
    ]) {
      expect((await checkWebhookDestination(url, productionWithPrivate)).isAllowed, url).toBe(
        false,
      );
    }
  });
});

describe('checkWebhookDestinationWithoutDns (the delivery-time check)', () => {
  const counting = (): DestinationPolicy & { lookups: number } => {
    const policy = {
      ...production,
      lookups: 0,
      resolve: async (hostname: string) => {
        policy.lookups += 1;
        return resolve(hostname);
      },
    };
    return policy;
  };

  it('judges address literals and localhost names without asking DNS', () => {
    const policy = counting();
    for (const url of ['https://10.0.0.1/hook', 'https://[::1]/hook', 'https://localhost/hook']) {
      expect(checkWebhookDestinationWithoutDns(new URL(url), policy)).toMatchObject({
        isAllowed: false,
      });
    }
    expect(
      checkWebhookDestinationWithoutDns(new URL('https://93.184.215.14/hook'), policy),
    ).toMatchObject({ isAllowed: true });
    expect(policy.lookups).toBe(0);
  });

  it('leaves host names to the connection’s guarded lookup (no second resolution)', () => {
    const policy = counting();
    expect(
      checkWebhookDestinationWithoutDns(new URL('https://intranet.example/hook'), policy),
    ).toBeNull();
    expect(policy.lookups).toBe(0);
  });
});

describe('destinationPolicyFor and WEBHOOK_ALLOW_PRIVATE_NETWORKS', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: temporaryDirectoryForTest('latchkey-guard-'),
      ...env,
    });

  it('refuses loopback only in production and private networks unless the flag is set', () => {
    expect(
      destinationPolicyFor({ isProduction: true, webhooks: { allowPrivateNetworks: false } }),
    ).toEqual({
      isLoopbackAllowed: false,
      isPrivateNetworkAllowed: false,
    });
    expect(destinationPolicyFor(load({}))).toEqual({
      isLoopbackAllowed: true,
      isPrivateNetworkAllowed: false,
    });
    expect(destinationPolicyFor(load({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }))).toEqual({
      isLoopbackAllowed: true,
      isPrivateNetworkAllowed: true,
    });
    expect(() => load({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow(ConfigError);
  });
});

describe('assertWebhookUrlAllowed', () => {
  it('requires https in production, even to localhost', async () => {
    await expect(
      assertWebhookUrlAllowed('http://localhost:8080/hook', production),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: WEBHOOK_HTTPS_REQUIRED,
    });
    await expect(
      assertWebhookUrlAllowed('http://93.184.215.14/hook', production),
    ).rejects.toMatchObject({
      message: WEBHOOK_HTTPS_REQUIRED,
    });
    await expect(
      assertWebhookUrlAllowed('https://93.184.215.14/hook', production),
    ).resolves.toBeUndefined();
  });

  it('allows plain http only to a loopback host outside production', async () => {
    for (const url of [
      'http://localhost:8080/hook',
      'http://127.0.0.1/hook',
      'http://[::1]:9000/',
    ]) {
      await expect(assertWebhookUrlAllowed(url, development), url).resolves.toBeUndefined();
    }
    for (const url of ['http://93.184.215.14/hook', 'http://loopback.example/hook']) {
      await expect(assertWebhookUrlAllowed(url, development), url).rejects.toMatchObject({
        message: WEBHOOK_HTTPS_REQUIRED_OUTSIDE_LOOPBACK,
      });
    }
  });

  it('refuses what the SSRF guard refuses', async () => {
    await expect(
      assertWebhookUrlAllowed('https://10.0.0.1/hook', development),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This webhook URL points to a private network address, which is not allowed',
    });
  });
});

describe('guardedLookup', () => {
  const lookupWith = (
    policy: DestinationPolicy,
    hostname: string,
    options: { all?: boolean; family?: number } = {},
  ) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>(
      (done) => {
        guardedLookup(policy)(hostname, options, (error, address, family) =>
          done({ error, address, ...(family === undefined ? {} : { family }) }),
        );
      },
    );

  it('refuses a name when any of its addresses is refused', async () => {
    for (const hostname of ['loopback.example', 'metadata.example', 'mixed.example', 'localhost']) {
      const { error } = await lookupWith(production, hostname);
      expect(error?.code, hostname).toBe(DESTINATION_REFUSED);
    }
    expect((await lookupWith(development, 'mixed.example', { all: true })).error?.code).toBe(
      DESTINATION_REFUSED,
    );
  });

  it('answers like dns.lookup when every address is allowed', async () => {
    expect(await lookupWith(production, 'public.example')).toEqual({
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
    expect(await lookupWith(production, 'public.example', { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      family: 6,
    });
    const all = await lookupWith(production, 'public.example', { all: true });
    expect(all.error).toBeNull();
    expect(all.address).toHaveLength(2);
    expect((await lookupWith(production, 'nowhere.example')).error?.code).toBe('ENOTFOUND');
  });

  it('resolves through the system resolver by default (localhost, outside production)', async () => {
    const { error, address } = await lookupWith(
      { isLoopbackAllowed: true, isPrivateNetworkAllowed: false },
      'localhost',
    );
    expect(error).toBeNull();
    expect(classifyAddress(address as string)).toBe('loopback');
  });

  describe('as the lookup of a real HTTP request', () => {
    let receiver: Server;
    let port: number;
    let received = 0;
    beforeAll(async () => {
      receiver = createServer((_request, response) => {
        received += 1;
        response.end('ok');
      });
      await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
      port = (receiver.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((closed) => receiver.close(() => closed())));

    const send = (policy: DestinationPolicy) =>
      new Promise<{ status?: number; code?: string }>((done) => {
        get(
          `http://loopback.example:${port}/hook`,
          { lookup: guardedLookup(policy) },
          (response) => {
            response.resume();
            done({ status: response.statusCode ?? 0 });
          },
        ).on('error', (error: NodeJS.ErrnoException) => done({ code: error.code ?? '' }));
      });

    it('never connects to a refused address, and connects to the checked one when allowed', async () => {
      expect(await send(production)).toEqual({ code: DESTINATION_REFUSED });
      expect(received).toBe(0);
      expect(await send(development)).toEqual({ status: 200 });
      expect(received).toBe(1);
    });
  });
});
