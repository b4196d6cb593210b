import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Helmet with a content security policy the console and the Firebase JS SDK work under:
 * the SDK loads Google's iframe helper script, talks to the identity endpoints (or the
 * emulator) and opens a popup that must keep its opener.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const emulatorOrigin = config.identity.emulatorHost
    ? `http://${config.identity.emulatorHost}`
    : null;
  const identityOrigins = [
    'https://identitytoolkit.googleapis.com',
    'https://securetoken.googleapis.com',
    'https://www.googleapis.com',
  ];
  const authDomainOrigin = `https://${config.identity.webConfig.authDomain}`;
  const withEmulator = (sources: string[]) =>
    emulatorOrigin ? [...sources, emulatorOrigin] : sources;

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", 'https://apis.google.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https://*.googleusercontent.com'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: withEmulator(["'self'", ...identityOrigins]),
        frameSrc: withEmulator([authDomainOrigin, 'https://apis.google.com']),
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    hsts: config.isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
}
