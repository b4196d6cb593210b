import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';

interface SignedResponse {
  publicKeyHex: string;
  timestamp: string | null;
  nonce: string;
  body: string | Uint8Array;
  signatureHex: string | null;
  nowSeconds?: number;
  maxClockSkewSeconds?: number;
}

// The committed template itself (placeholders unfilled), as a vendor's program would import it.
const templateUrl = new URL('../nodejs/latchkey-client.mjs', import.meta.url).href;
const { verifyResponseSignature, MAX_CLOCK_SKEW_SECONDS } = (await import(templateUrl)) as {
  verifyResponseSignature: (response: SignedResponse) => boolean;
  MAX_CLOCK_SKEW_SECONDS: number;
};

/** The worked example of docs/client-api.md (RFC 8032 test 1 key). */
const example = {
  publicKeyHex: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  timestamp: '1775044800',
  nonce: 'c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11',
  body: '{"success":true,"message":"User verified","code":"OK"}',
  signatureHex:
    'cfccec4a7f60fa37eee036f851e1e9ee875e33ba0eedfcd95150cbc94d9abb44' +
    'cf97529416254ca29e28c50d7b344b52fe770894ddbd5c02a0fa6a102f096201',
  nowSeconds: 1775044800 + 10,
};

describe('Node.js sample: response signature verifier', () => {
  it('accepts the worked example, as bytes or as text', () => {
    expect(verifyResponseSignature(example)).toBe(true);
    expect(verifyResponseSignature({ ...example, body: Buffer.from(example.body) })).toBe(true);
  });

  it('refuses a tampered body (one byte changed)', () => {
    const body = example.body.replace('User verified', 'user verified');
    expect(verifyResponseSignature({ ...example, body })).toBe(false);
  });

  it('refuses a signature made for another nonce, or for no nonce', () => {
    expect(
      verifyResponseSignature({ ...example, nonce: 'c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e12' }),
    ).toBe(false);
    expect(verifyResponseSignature({ ...example, nonce: '' })).toBe(false);
  });

  it('refuses a timestamp beyond the allowed clock skew, either way', () => {
    const skew = MAX_CLOCK_SKEW_SECONDS;
    expect(skew).toBe(300);
    expect(verifyResponseSignature({ ...example, nowSeconds: 1775044800 + skew })).toBe(true);
    expect(verifyResponseSignature({ ...example, nowSeconds: 1775044800 + skew + 1 })).toBe(false);
    expect(verifyResponseSignature({ ...example, nowSeconds: 1775044800 - skew - 1 })).toBe(false);
    // The real clock is far from the example's: without an injected time it is stale.
    expect(verifyResponseSignature({ ...example, nowSeconds: undefined })).toBe(false);
  });

  it('refuses the right signature under another key (RFC 8032 test 2)', () => {
    const otherKey = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c';
    expect(verifyResponseSignature({ ...example, publicKeyHex: otherKey })).toBe(false);
  });

  it('refuses missing or malformed headers and an unfilled key placeholder', () => {
    expect(verifyResponseSignature({ ...example, signatureHex: null })).toBe(false);
    expect(verifyResponseSignature({ ...example, timestamp: null })).toBe(false);
    expect(verifyResponseSignature({ ...example, timestamp: '1775044800.0' })).toBe(false);
    // Buffer.from(hex) would stop at the first bad digit: a lenient parse must not pass.
    expect(verifyResponseSignature({ ...example, signatureHex: `${example.signatureHex}zz` })).toBe(
      false,
    );
    expect(verifyResponseSignature({ ...example, publicKeyHex: 'YOUR_SIGNING_PUBLIC_KEY' })).toBe(
      false,
    );
  });
});

// Offline licences, verified with nothing but the pinned key (docs/client-api.md).
interface OfflineCheck {
  publicKeyHex: string;
  applicationId: number | undefined;
  hwid: string;
  nowSeconds?: number;
  lastSeenSeconds?: number;
}
interface LicenseContent {
  username: string;
  hwid: string | null;
  issued_at: string;
  valid_until: string;
  [field: string]: unknown;
}
const offline = (await import(templateUrl)) as {
  verifyOfflineLicense: (
    license: unknown,
    check: OfflineCheck,
  ) => { content: LicenseContent | null; refusal?: string };
  offlineRefusalMessage: (refusal: string, content: LicenseContent | null) => string;
  formatLocalTime: (iso: string) => string;
  CLOCK_TOLERANCE_SECONDS: number;
  OFFLINE_LICENSE_TTL_SECONDS: number;
};

/** The worked licence of docs/client-api.md, signed with the same RFC 8032 test 1 key. */
const workedLicense =
  'LK1.eyJhcHBsaWNhdGlvbl9pZCI6NDIsInVzZXJfaWQiOiIwYjBmN2MxZS01ZDJhLTRjMWUtOWYzYi02YTdkOGU5ZjBhMWIiLCJ1c2VybmFtZSI6ImFsaWNlIiwiaHdpZCI6IkRFU0tUT1AtN0YzSyIsImVudGl0bGVtZW50cyI6WyJFWFBPUlRfUERGIiwiUFJPIl0sInN1YnNjcmlwdGlvbnMiOlt7InBsYW4iOiJQcm8iLCJleHBpcmVzX2F0IjoiMjAyNi0wNy0wMVQxMjowMDowMC4wMDBaIn1dLCJhY2NvdW50X2V4cGlyZXNfYXQiOm51bGwsImlzc3VlZF9hdCI6IjIwMjYtMDYtMDFUMTI6MDA6MDAuMDAwWiIsInZhbGlkX3VudGlsIjoiMjAyNi0wNi0wOFQxMjowMDowMC4wMDBaIiwiaWQiOiI1ZTFjMmI3YS05ZDRmLTRlOGEtYjNjNi0xZjJlM2Q0YzViNmEifQ.gXxZitkGitki-qpbCaGJIDK4PJIMwOzX2X01FKhihO_kDHH4ec5U0X_Iq4ApRnWZb7muw2vpL9IIid7Opw4TCg';
const issuedAt = Date.parse('2026-06-01T12:00:00.000Z') / 1000;
const validUntil = Date.parse('2026-06-08T12:00:00.000Z') / 1000;
const check: OfflineCheck = {
  publicKeyHex: example.publicKeyHex,
  applicationId: 42,
  hwid: 'DESKTOP-7F3K',
  nowSeconds: issuedAt + 3600,
  lastSeenSeconds: issuedAt + 60,
};

/** A licence of other content, signed as the server would with the documented test key. */
const signLicense = (content: Record<string, unknown>) => {
  const seed = Buffer.from(
    '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    'hex',
  );
  const privateKey = createPrivateKey({
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      d: seed.toString('base64url'),
      x: Buffer.from(example.publicKeyHex, 'hex').toString('base64url'),
    },
    format: 'jwk',
  });
  const payload = Buffer.from(JSON.stringify(content)).toString('base64url');
  const signature = sign(null, Buffer.from(`latchkey-license-v1.${payload}`), privateKey);
  return `LK1.${payload}.${signature.toString('base64url')}`;
};
const workedContent = JSON.parse(
  Buffer.from(workedLicense.split('.')[1]!, 'base64url').toString('utf8'),
) as LicenseContent;

describe('Node.js sample: offline licence verifier', () => {
  const refusalOf = (license: unknown, changes: Partial<OfflineCheck> = {}) =>
    offline.verifyOfflineLicense(license, { ...check, ...changes }).refusal ?? 'accepted';

  it('accepts the worked licence of the docs, with its content', () => {
    const result = offline.verifyOfflineLicense(workedLicense, check);
    expect(result.refusal).toBeUndefined();
    expect(result.content).toMatchObject({ application_id: 42, username: 'alice' });
    // The sample's own constants: five minutes of clock tolerance, a week offline.
    expect(offline.CLOCK_TOLERANCE_SECONDS).toBe(300);
    expect(offline.OFFLINE_LICENSE_TTL_SECONDS).toBe(604800);
  });

  it('refuses a licence not signed by this application: edited, re-signed by another key, another application, mangled', () => {
    const [prefix, payload, signature] = workedLicense.split('.') as [string, string, string];
    const edited = Buffer.from(
      Buffer.from(payload, 'base64url').toString('utf8').replace('"alice"', '"mallory"'),
    ).toString('base64url');
    expect(refusalOf(`${prefix}.${edited}.${signature}`)).toBe('not-signed');
    // RFC 8032 test 2's public key: a real key, not the one that signed.
    expect(
      refusalOf(workedLicense, {
        publicKeyHex: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
      }),
    ).toBe('not-signed');
    expect(refusalOf(workedLicense, { applicationId: 43 })).toBe('not-signed');
    expect(refusalOf(workedLicense, { applicationId: undefined })).toBe('not-signed');
    // The domain is part of what is signed: the same bytes under LK1E are not this licence.
    expect(refusalOf(`LK1E.${payload}.${signature}`)).toBe('not-signed');
    expect(refusalOf(`${prefix}.${payload}`)).toBe('not-signed');
    expect(refusalOf(`${workedLicense}.extra`)).toBe('not-signed');
    expect(refusalOf(`${prefix}.${payload}.${signature.slice(0, -2)}`)).toBe('not-signed');
    expect(refusalOf(null)).toBe('not-signed');
    expect(refusalOf(workedLicense, { publicKeyHex: 'YOUR_SIGNING_PUBLIC_KEY' })).toBe(
      'not-signed',
    );
    expect(offline.offlineRefusalMessage('not-signed', null)).toBe(
      'This offline licence is not signed by this application.',
    );
  });

  it('refuses every re-encoding of the worked licence, even those that decode to the same bytes', () => {
    const [prefix, payload, signature] = workedLicense.split('.') as [string, string, string];
    const lastBitsChanged = signature.slice(0, -1) + (signature.endsWith('g') ? 'h' : 'g');
    // Buffer.from(..., 'base64url') reads this as the very signature: only the text differs.
    expect(Buffer.from(lastBitsChanged, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    const mutations: Record<string, string> = {
      'a trailing newline': `${workedLicense}\n`,
      'the payload padded': `${prefix}.${payload}==.${signature}`,
      'the signature padded': `${prefix}.${payload}.${signature}==`,
      'a space inside the payload': `${prefix}.${payload.slice(0, 20)} ${payload.slice(20)}.${signature}`,
      'a space inside the signature': `${prefix}.${payload}.${signature.slice(0, 20)} ${signature.slice(20)}`,
      'a "+" for the "-" of the signature': `${prefix}.${payload}.${signature.replace('-', '+')}`,
      'the last signature character changed in its unused bits': `${prefix}.${payload}.${lastBitsChanged}`,
    };
    const accepted = Object.entries(mutations)
      .filter(([, license]) => refusalOf(license) !== 'not-signed')
      .map(([name]) => name);
    expect(accepted).toEqual([]);
  });

  it("refuses another machine's licence, and one bound to no machine", () => {
    expect(refusalOf(workedLicense, { hwid: 'LAPTOP-9Q2Z' })).toBe('another-machine');
    expect(refusalOf(signLicense({ ...workedContent, hwid: null }))).toBe('another-machine');
    // Signed by the documented key, so the verifier's own signing stands for the server's.
    expect(refusalOf(signLicense(workedContent))).toBe('accepted');
    expect(offline.offlineRefusalMessage('another-machine', workedContent)).toBe(
      'This offline licence belongs to another machine.',
    );
  });

  it('holds until valid_until and refuses it a second later, naming the end in local time', () => {
    expect(refusalOf(workedLicense, { nowSeconds: validUntil })).toBe('accepted');
    expect(refusalOf(workedLicense, { nowSeconds: validUntil + 1 })).toBe('expired');
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata'; // +05:30 all year: a conversion that shows
    try {
      expect(offline.formatLocalTime('2026-06-08T12:00:00.000Z')).toBe('2026-06-08 17:30');
      expect(offline.formatLocalTime('2026-06-08T12:00:00.001Z')).toBe('2026-06-08 17:31');
      expect(offline.offlineRefusalMessage('expired', workedContent)).toBe(
        'This offline licence expired on 2026-06-08 17:30.',
      );
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('refuses a clock set back beyond the tolerance from the last time seen, or before the issue', () => {
    const tolerance = offline.CLOCK_TOLERANCE_SECONDS;
    const now = issuedAt + 86_400;
    expect(refusalOf(workedLicense, { nowSeconds: now, lastSeenSeconds: now + tolerance })).toBe(
      'accepted',
    );
    expect(
      refusalOf(workedLicense, { nowSeconds: now, lastSeenSeconds: now + tolerance + 1 }),
    ).toBe('clock');
    expect(
      refusalOf(workedLicense, { nowSeconds: issuedAt - tolerance - 1, lastSeenSeconds: 0 }),
    ).toBe('clock');
    expect(offline.offlineRefusalMessage('clock', workedContent)).toBe(
      'The system clock moved backwards since the last run.',
    );
  });
});
