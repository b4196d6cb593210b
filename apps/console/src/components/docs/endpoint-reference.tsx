import { clientApiHeaders, clientCallCatalogue, type ClientCallEntry } from '@latchkey/contracts';
import type { z } from 'zod';
import { Badge } from '@/components/ui/badge.tsx';
import { describeSchemaFields, type SchemaField } from '@/lib/schema-fields.ts';

/** The public client API, as the contracts list it; the shapes are their own schemas. */
export const CLIENT_API_ENDPOINT_DOCS: readonly ClientCallEntry[] =
  Object.values(clientCallCatalogue);

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
