// The ceilings for verify and heartbeat: bare Fastify routes answering a constant JSON body,
// with Fastify's defaults (JSON body parsing included) and nothing else.
// - POST /bare: the ceiling the targets are measured against.
// - POST /bare-signed: the same, plus the one thing every client API answer must carry: an
//   Ed25519 signature over `{timestamp}.{nonce}.{body}` in the two signature headers, made
//   with the library and the message layout the server uses (apps/server/src/lib/
//   ed25519-signer.ts, routes.ts). It shows what signing alone costs on this machine.
import { createRequire } from 'node:module';
import Fastify from 'fastify';

const sodium = createRequire(import.meta.url)('sodium-native');
const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
const secretKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
sodium.crypto_sign_keypair(publicKey, secretKey);

const app = Fastify({ logger: false });
const body = { success: true, message: 'User verified', code: 'OK' };
app.post('/bare', async () => body);
await app.register(async (signed) => {
  signed.addHook('onSend', (request, reply, payload, done) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = request.headers['x-request-nonce'] ?? '';
    const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
    sodium.crypto_sign_detached(
      signature,
      Buffer.from(`${timestamp}.${nonce}.${payload}`),
      secretKey,
    );
    reply.header('x-signature-ed25519', signature.toString('hex'));
    reply.header('x-signature-timestamp', timestamp);
    done(null, payload);
  });
  signed.post('/bare-signed', async () => body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
