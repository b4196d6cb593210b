import {
  clientApiHeaders,
  clientAuthResponseSchema,
  clientDeviceResetRequestSchema,
  clientDeviceResetResponseSchema,
  clientFileRequestSchema,
  clientFileResponseSchema,
  clientLicenseCheckoutRequestSchema,
  clientLicenseCheckoutResponseSchema,
  clientLicenseLoginRequestSchema,
  clientLoginRequestSchema,
  clientPublicKeyResponseSchema,
  clientRedeemRequestSchema,
  clientRegisterRequestSchema,
  clientSessionRequestSchema,
  clientSessionResponseSchema,
  clientSetUserVariableRequestSchema,
  clientUserVariableRequestSchema,
  clientVariableRequestSchema,
  clientVariableResponseSchema,
  clientVerifyRequestSchema,
  clientVerifyResponseSchema,
} from '@latchkey/contracts';
import type { z } from 'zod';
import { Badge } from '@/components/ui/badge.tsx';
import { describeSchemaFields, type SchemaField } from '@/lib/schema-fields.ts';

interface EndpointDoc {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  request: z.ZodType | null;
  response: z.ZodType;
}

/** The public client API; the shapes are the contracts' own schemas. */
export const CLIENT_API_ENDPOINT_DOCS: readonly EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/v1/register',
    summary: 'Creates an end user of the application the API key names.',
    request: clientRegisterRequestSchema,
    response: clientAuthResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/login',
    summary:
      'Checks the blacklist, the password, the account state, the version and the hardware ID, in that order; the first that fails answers.',
    request: clientLoginRequestSchema,
    response: clientAuthResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/verify',
    summary:
      'Confirms that a user is still in good standing (exists, active, not paused, not expired).',
    request: clientVerifyRequestSchema,
    response: clientVerifyResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/session/track',
    summary:
      'Starts a session after a login, keeps it alive with heartbeats and ends it. One body per action.',
    request: clientSessionRequestSchema,
    response: clientSessionResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/license/redeem',
    summary:
      'Adds a licence key to an end user\u2019s account (username and password): it starts or extends the subscription of its plan.',
    request: clientRedeemRequestSchema,
    response: clientAuthResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/license/login',
    summary:
      'Logs in with a licence key alone: its first use creates the end user it stands for, later uses log that user in.',
    request: clientLicenseLoginRequestSchema,
    response: clientAuthResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/license/checkout',
    summary:
      'An offline licence for a live session: one signed line the program verifies without the network until it lapses.',
    request: clientLicenseCheckoutRequestSchema,
    response: clientLicenseCheckoutResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/devices/reset',
    summary:
      'Releases one of the end user\u2019s devices, or all of them, when the application allows self-service resets (once per cooldown).',
    request: clientDeviceResetRequestSchema,
    response: clientDeviceResetResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/var',
    summary:
      'Reads an application variable. One that requires a session (the default) needs a live session_token.',
    request: clientVariableRequestSchema,
    response: clientVariableResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/user-var',
    summary: 'Reads one of the session’s own end user’s variables.',
    request: clientUserVariableRequestSchema,
    response: clientVariableResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/user-var/set',
    summary:
      'Creates or replaces one of the session’s own end user’s variables, unless it is read-only.',
    request: clientSetUserVariableRequestSchema,
    response: clientVariableResponseSchema,
  },
  {
    method: 'POST',
    path: '/api/v1/file',
    summary:
      'A 5-minute download URL for one of the application\u2019s files, with its size and SHA-256; a live session unless the file needs none.',
    request: clientFileRequestSchema,
    response: clientFileResponseSchema,
  },
  {
    method: 'GET',
    path: '/api/v1/public-key',
    summary: 'The server-wide Ed25519 key that signs answers to requests with no known API key.',
    request: null,
    response: clientPublicKeyResponseSchema,
  },
];

function FieldTable({ caption, fields }: { caption: string; fields: SchemaField[] }) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={caption}
      className="overflow-x-auto rounded-lg border border-border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
    >
      <table className="w-full min-w-[28rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60 text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Required
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Max length
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.name} className="border-t border-border">
              <td className="px-3 py-2 font-mono text-xs">{field.name}</td>
              <td className="px-3 py-2 font-mono text-xs">{field.type}</td>
              <td className="px-3 py-2">{field.isRequired ? 'Yes' : 'No'}</td>
              <td className="px-3 py-2">{field.maxLength ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Shapes({
  title,
  schema,
  io,
}: {
  title: string;
  schema: z.ZodType;
  io: 'input' | 'output';
}) {
  const variants = describeSchemaFields(schema, io);
  return (
    <div className="grid gap-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      {variants.map((fields, index) => {
        const action = fields.find((field) => field.name === 'action');
        const caption = action ? `${title}, action ${action.type}` : title;
        return (
          <div key={index} className="grid gap-1.5">
            {action && <p className="text-xs text-muted-foreground">action {action.type}</p>}
            <FieldTable caption={caption} fields={fields} />
          </div>
        );
      })}
    </div>
  );
}

/** The API endpoint docs, every field read from packages/contracts. */
export function EndpointReference() {
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        Every request carries the application&apos;s API key in the{' '}
        <code className="font-mono">{clientApiHeaders.apiKey}</code> header and a fresh random{' '}
        <code className="font-mono">{clientApiHeaders.nonce}</code>; bodies are JSON.
      </p>
      {CLIENT_API_ENDPOINT_DOCS.map((endpoint) => (
        <article
          key={endpoint.path}
          aria-labelledby={`endpoint-${endpoint.path.replaceAll('/', '-')}`}
          className="grid gap-4 rounded-xl border border-border p-4"
        >
          <h3
            id={`endpoint-${endpoint.path.replaceAll('/', '-')}`}
            className="flex flex-wrap items-center gap-2 text-base font-semibold"
          >
            <Badge variant="secondary" className="font-mono">
              {endpoint.method}
            </Badge>
            <code className="font-mono break-all">{endpoint.path}</code>
          </h3>
          <p className="text-sm text-muted-foreground">{endpoint.summary}</p>
          {endpoint.request && <Shapes title="Request body" schema={endpoint.request} io="input" />}
          <Shapes title="Response body" schema={endpoint.response} io="output" />
        </article>
      ))}
    </div>
  );
}
