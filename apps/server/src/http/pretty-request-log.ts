import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * pino-pretty's settings for LOG_FORMAT=pretty: one line per log entry, and for a request
 * `METHOD /path → status (ms)` rather than its fields. The lean client path logs its requests
 * with the same `req`, `res` and `responseTime` fields, so its lines read the same.
 */
export const prettyLogTransport = {
  target: 'pino-pretty',
  options: {
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat:
      '{msg}{if req.method} {req.method} {req.url} → {res.statusCode}{end}{if responseTime} ({responseTime} ms){end}',
  },
};

/**
 * Fastify logs two lines per request ("incoming request", "request completed"); a person
 * reading a terminal wants one, written when the answer is known and naming the request.
 * Every other line Fastify writes (errors among them) stays as it is.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = {
      req: request,
      res: reply,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
