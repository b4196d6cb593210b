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
