import { createHash, randomBytes } from 'node:crypto';
import { activationRequestFormat, type ActivationRequestContent } from '@latchkey/contracts';

/**
 * An activation request as a program without the network writes it (`LKA1.<payload>.<check>`,
 * packages/contracts/src/offline-activation.ts), for the portal's air-gapped page.
 */
export function activationRequest(
  fields: Pick<ActivationRequestContent, 'app' | 'hwid'> & Partial<ActivationRequestContent>,
): string {
  const content: ActivationRequestContent = {
    nonce: randomBytes(12).toString('base64url'),
    created_at: new Date().toISOString(),
    ...fields,
  };
  const payload = Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
  const check = createHash('sha256')
    .update(`${activationRequestFormat.checkDomain}.${payload}`, 'ascii')
    .digest('base64url')
    .slice(0, activationRequestFormat.checkLength);
  return `${activationRequestFormat.prefix}.${payload}.${check}`;
}
