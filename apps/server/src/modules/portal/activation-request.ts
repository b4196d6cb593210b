import { createHash } from 'node:crypto';
import {
  activationRequestContentSchema,
  activationRequestFormat,
  type ActivationRequestContent,
} from '@latchkey/contracts';

/** The check of a payload segment: a request copied in part, or edited, fails it. */
function activationCheck(payloadSegment: string): string {
  return createHash('sha256')
    .update(`${activationRequestFormat.checkDomain}.${payloadSegment}`, 'ascii')
    .digest('base64url')
    .slice(0, activationRequestFormat.checkLength);
}

/**
 * The text of an activation request (`LKA1.<payload>.<check>`) as a program writes it. The
 * SDKs write the same bytes; the server uses this in its tests and its documentation's example.
 */
export function encodeActivationRequest(content: ActivationRequestContent): string {
  const payload = Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
  return `${activationRequestFormat.prefix}.${payload}.${activationCheck(payload)}`;
}

/** The content of an activation request's text, or null when it is not one, whole. */
export function parseActivationRequest(text: string): ActivationRequestContent | null {
  const parts = text.split('.');
  const [prefix, payload, check] = parts;
  if (parts.length !== 3 || prefix !== activationRequestFormat.prefix || !payload || !check) {
    return null;
  }
  if (!/^[A-Za-z0-9_-]+$/.test(payload) || check !== activationCheck(payload)) return null;
  try {
    const parsed = activationRequestContentSchema.safeParse(
      JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
