// The ceiling for verify and heartbeat: a bare Fastify route answering a constant JSON body,
// with Fastify's defaults (JSON body parsing included) and nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { success: true, message: 'User verified', code: 'OK' };
app.post('/bare', async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
