import type { Application } from '@latchkey/contracts';
import { CodeXml, KeyRound, Network, ShieldCheck } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { buildIntegrationPath } from '@/lib/integration-search.ts';
import { ApiKeyField } from './api-key-field.tsx';
import { KeyauthCompatibilityCard } from './keyauth-compatibility-card.tsx';

/** The client API calls a vendor's program makes. */
export const CLIENT_API_ENDPOINTS = [
  { path: '/api/v1/register', description: 'Create an end-user account.' },
  {
    path: '/api/v1/login',
    description: 'Check the credentials, version, expiry and HWID, and start a session.',
  },
  { path: '/api/v1/verify', description: 'Confirm that a session is still valid.' },
] as const;

/** The API Configuration tab; its last card lets programs built on KeyAuth's libraries in. */
export function ApplicationApiConfiguration({ application }: { application: Application }) {
  const id = useId();
  const origin = window.location.origin;

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <SectionCard
        className="lg:col-span-2"
        title="API Key"
        description="Your program sends this key with every request. Keep it out of public repositories."
        icon={KeyRound}
        contentClassName="grid gap-2"
      >
        <Label htmlFor={`${id}-api-key`} className="sr-only">
          API Key
        </Label>
        <ApiKeyField id={`${id}-api-key`} secret={application.apiKey} />
      </SectionCard>

      <SectionCard
        title="Endpoints"
        description={
          <>
            Your program posts JSON to <code className="font-mono text-xs">{origin}</code>.
          </>
        }
        icon={Network}
      >
        <ul className="grid gap-3">
          {CLIENT_API_ENDPOINTS.map((endpoint) => (
            <li
              key={endpoint.path}
              className="flex items-center gap-3 rounded-lg border border-border p-3"
            >
              <Badge variant="secondary" className="font-mono">
                POST
              </Badge>
              <div className="grid min-w-0 flex-1 gap-0.5">
                <code className="truncate font-mono text-sm font-medium">{endpoint.path}</code>
                <span className="text-xs text-muted-foreground">{endpoint.description}</span>
              </div>
              <CopyButton value={`${origin}${endpoint.path}`} label={`Copy ${endpoint.path} URL`} />
            </li>
          ))}
        </ul>
      </SectionCard>

      <SectionCard
        title="Response Signing Key"
        description={
          <>
            Clients verify the Ed25519 signature of every response with this public key, so a forged
            or tampered answer is rejected.
          </>
        }
        icon={ShieldCheck}
        contentClassName="grid gap-2"
      >
        <p id={`${id}-signing-key-label`} className="text-sm font-medium">
          Signing public key (hex)
        </p>
        <div className="flex items-start gap-1">
          <code
            data-testid="signing-public-key"
            aria-labelledby={`${id}-signing-key-label`}
            className="min-w-0 flex-1 rounded-md border border-input bg-muted/40 px-3 py-2 font-mono text-xs break-all"
          >
            {application.signingPublicKey}
          </code>
          <CopyButton value={application.signingPublicKey} label="Copy signing public key" />
        </div>
      </SectionCard>

      <SectionCard
        className="lg:col-span-2"
        title="Client Samples"
        description={
          <>
            Ready-made clients in C#, Python, Node.js and C++ with this application&apos;s API key,
            base URL, version and signing key already in them.
          </>
        }
        icon={CodeXml}
      >
        <Button asChild variant="outline">
          <Link href={buildIntegrationPath({ applicationId: application.id, language: 'csharp' })}>
            <CodeXml aria-hidden="true" />
            Integration samples
          </Link>
        </Button>
      </SectionCard>

      <KeyauthCompatibilityCard className="lg:col-span-2" application={application} />
    </div>
  );
}
