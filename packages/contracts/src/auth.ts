import { z } from 'zod';
import { userPermissionsSchema } from './roles.ts';

/** POST /api/auth/firebase-login: the console's sign-in, trading a Firebase ID token. */
export const firebaseLoginRequestSchema = z.object({
  firebase_token: z.string().min(1).max(8192),
  firebase_uid: z.string().max(128).optional(),
  email: z.string().max(320).nullish(),
  display_name: z.string().max(256).nullish(),
});
export type FirebaseLoginRequest = z.infer<typeof firebaseLoginRequestSchema>;

export const firebaseLoginResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    account_id: z.string().optional(),
  })
  .meta({
    id: 'FirebaseLoginResponse',
    description:
      'success false (HTTP 200) when the Google token is refused; on success the session cookie is set.',
  });
export type FirebaseLoginResponse = z.infer<typeof firebaseLoginResponseSchema>;

/** GET /api/auth/user: the signed-in owner's profile. */
export const currentUserSchema = z
  .object({
    id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string(),
    userPermissions: userPermissionsSchema,
  })
  .meta({ id: 'CurrentUser', description: "The signed-in owner's profile and permissions." });
export type CurrentUser = z.infer<typeof currentUserSchema>;
