import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Helmet with a content security policy the console and the Firebase JS SDK work under:
 * the SDK loads Google's iframe helper script, talks to the identity endpoints (or the
 * emulator) and opens a popup that must keep its opener.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const consoleIndexPath = config.consoleDistDir ? join(config.consoleDistDir, 'index.html') : null;
  const consoleScriptHashes =
    consoleIndexPath && existsSync(consoleIndexPath)
      ? inlineScriptHashes(readFileSync(consoleIndexPath, 'utf8'))
      : [];
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
        scriptSrc: ["'self'", ...consoleScriptHashes, 'https://apis.google.com'],
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

/**
 * CSP source expressions ('sha256-…') for the inline scripts of the built index.html: the
 * policy allows exactly those bytes and no other inline script.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}
