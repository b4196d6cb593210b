import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { SignedInOwner, TestApp } from './test-app.ts';

/** Whose console sends a request: an owner's headers, or those with some changed. */
export type OwnerCredentials = Pick<SignedInOwner, 'headers'>;

/** A call to the owner API as the console makes it; a payload that is a string is sent as is. */
export type OwnerRequest = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  who?: OwnerCredentials,
) => Promise<LightMyRequestResponse>;

/** Calls to the owner API with `owner`'s session cookie, account id and Origin by default. */
export function ownerRequests(testApp: TestApp, owner: OwnerCredentials): OwnerRequest {
  return (method, url, payload, who = owner) =>
    testApp.app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
}

/** `owner`'s console headers with some added or replaced (a content type, another account). */
export function withHeaders(owner: OwnerCredentials, headers: Record<string, string>) {
  return { headers: { ...owner.headers, ...headers } };
}
