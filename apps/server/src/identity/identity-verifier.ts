import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';

export interface VerifiedIdentity {
  uid: string;
  email: string | null;
  isEmailVerified: boolean;
  name: string | null;
  signInProvider: string | null;
}

/** Turns a Firebase ID token into a verified identity, or throws. */
export interface IdentityVerifier {
  readonly mode: 'emulator' | 'firebase';
  verifyIdToken(idToken: string): Promise<VerifiedIdentity>;
  close(): Promise<void>;
}

/**
 * firebase-admin verifies the token's signature against Google's keys and its audience
 * against our project id, so a token from another project is refused. The admin SDK only
 * learns about the emulator from FIREBASE_AUTH_EMULATOR_HOST in the process environment;
 * config.ts guarantees that never happens in production.
 */
export function createFirebaseIdentityVerifier(options: {
  projectId: string;
  emulatorHost: string | null;
}): IdentityVerifier {
  if (options.emulatorHost) {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost;
  } else {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  }
  const app: App = initializeApp({ projectId: options.projectId }, `latchkey-${randomUUID()}`);
  const auth = getAuth(app);
  return {
    mode: options.emulatorHost ? 'emulator' : 'firebase',
    async verifyIdToken(idToken) {
      const decoded = await auth.verifyIdToken(idToken);
      return {
        uid: decoded.uid,
        email: decoded.email ?? null,
        isEmailVerified: decoded.email_verified === true,
        name: typeof decoded.name === 'string' ? decoded.name : null,
        signInProvider: decoded.firebase?.sign_in_provider ?? null,
      };
    },
    close: () => deleteApp(app),
  };
}
