import { keyauthAnswerSchema, keyauthFormSchema } from '@latchkey/contracts';
import { routeDefiner, type RouteInput } from '../../http/route-definition.ts';
import { KEYAUTH_INVALID, KEYAUTH_VERSIONS, type KeyauthVersion } from './keyauth-answerer.ts';

/** What the KeyAuth routes' handlers are given: the Fastify route's way into the answerer. */
export interface KeyauthRouteServices {
  answerRoute(
    version: KeyauthVersion,
    input: Pick<RouteInput<undefined, undefined, undefined>, 'request' | 'reply'>,
  ): Promise<unknown>;
}

const defineRoute = routeDefiner<KeyauthRouteServices>();

const versionText: Record<KeyauthVersion, string> = {
  '1.2':
    'API 1.2: the `signature` header is the hex HMAC-SHA256 of the body, keyed by the application\u2019s KeyAuth secret for init and by `{enckey}-{secret}` afterwards.',
  '1.3':
    'API 1.3: `x-signature-ed25519` is the Ed25519 signature over `x-signature-timestamp` + the body, with the application\u2019s own key (its signingPublicKey).',
};

/**
 * The KeyAuth-compatible API's routes, one per version and method: what the OpenAPI document,
 * the answer checks and the route tests read. The form is read by the handler (KeyAuth's clients
 * send fields any type may ignore), so the body is documented, not parsed, here.
 */
export const keyauthRoutes = KEYAUTH_VERSIONS.flatMap((version) =>
  (['POST', 'GET'] as const).map((method) =>
    defineRoute({
      method,
      path: `/api/${version}/`,
      caller: 'public',
      tag: 'KeyAuth-compatible API',
      summary: `A KeyAuth ${version} request${method === 'GET' ? ' (fields in the query)' : ''}`,
      description: `${versionText[version]} Every outcome is HTTP 200; an owner id and name that name no application with compatibility on answer the bare text \`${KEYAUTH_INVALID}\`.`,
      ...(method === 'POST'
        ? { body: keyauthFormSchema, bodyMediaType: 'application/x-www-form-urlencoded' as const }
        : {}),
      responses: {
        200: {
          description: 'KeyAuth\u2019s answer.',
          schema: keyauthAnswerSchema,
          plainTexts: [KEYAUTH_INVALID],
        },
      },
      handle: (input, services) => services.answerRoute(version, input),
    }),
  ),
);
