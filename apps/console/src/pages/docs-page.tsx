import { sampleLanguages, type SampleLanguage } from '@latchkey/contracts';
import { useEffect, type ReactNode } from 'react';
import clientApiMarkdown from '../../../../docs/client-api.md?raw';
import { ClientApiCodesTable } from '@/components/docs/client-api-codes-table.tsx';
import { CSharpClientSection } from '@/components/docs/csharp-client-section.tsx';
import { DocsNavigation } from '@/components/docs/docs-navigation.tsx';
import { EndpointReference } from '@/components/docs/endpoint-reference.tsx';
import { ImplementationGuide } from '@/components/docs/implementation-guide.tsx';
import { KeyauthMigrationGuide } from '@/components/docs/keyauth-migration-guide.tsx';
import { DevicesGuide } from '@/components/docs/devices-guide.tsx';
import { DownloadsGuide } from '@/components/docs/downloads-guide.tsx';
import { LicensesGuide } from '@/components/docs/licenses-guide.tsx';
import { MarkdownView } from '@/components/docs/markdown-view.tsx';
import { QuickStart } from '@/components/docs/quick-start.tsx';
import { VariablesGuide } from '@/components/docs/variables-guide.tsx';
import { SdkInstall } from '@/components/integration/sdk-install.tsx';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { KEYAUTH_MIGRATION_SECTION } from '@/lib/docs-links.ts';
import { markdownSection } from '@/lib/markdown-blocks.ts';

/** What the service does for a vendor: the product's advertised features, in plain words. */
export const DOCUMENTED_FEATURES = [
  'User registration and login, passwords hashed with argon2id',
  'API key authentication, one key per application',
  'Session tracking with heartbeats and live session counts',
  'Hardware ID (HWID) locking to the first device',
  'Forced application version updates',
  'Account expiry, and pausing or disabling users',
  'A blacklist by IP address, username, e-mail or hardware ID',
  'A live dashboard, statistics and activity logs',
  'Rate limiting of requests and failed logins',
  'Webhook notifications for logins, failures and violations',
  'Licence keys in bulk, plans with entitlements, and subscriptions per user',
  'Remote variables per application and per user, read-only where you say',
  'Ed25519-signed responses, so a fake server cannot unlock your program',
  'A JSON REST API with a C# WinForms client and samples in Python, Node.js and C++',
  'Dark and light themes, and role-based access control',
] as const;

/** What each SDK package is, in the words of its ecosystem. */
const SDK_PACKAGE_DESCRIPTIONS: Record<SampleLanguage, string> = {
  csharp: 'Latchkey.Client: a NuGet package for .NET Framework 4.5 or later, Mono and modern .NET.',
  python: 'latchkey: a pure-Python wheel for Python 3.9 or later, Ed25519 through PyNaCl.',
  nodejs: '@latchkey/client: an npm package for Node.js 18 or later, with no dependencies.',
  cpp: 'latchkey: a C++17 CMake package (find_package(latchkey)) with a C header, on libcurl and libsodium.',
};

const SECTIONS = [
  { id: 'quick-start', title: 'Quick Start' },
  { id: 'features', title: 'Features' },
  { id: 'csharp-client', title: 'C# Client' },
  { id: 'sdks', title: 'Client SDKs' },
  { id: 'endpoints', title: 'API Endpoints' },
  { id: 'codes', title: 'Response Codes' },
  { id: 'licences', title: 'Licences' },
  { id: 'devices', title: 'Devices' },
  { id: 'variables', title: 'Variables' },
  { id: 'downloads', title: 'Downloads and Updates' },
  { id: 'signatures', title: 'Verifying Signatures' },
  { id: 'implementation', title: 'Implementation Guide' },
  KEYAUTH_MIGRATION_SECTION,
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

function DocsSection({ id, children }: { id: SectionId; children: ReactNode }) {
  const { title } = SECTIONS.find((section) => section.id === id)!;
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="grid scroll-mt-20 gap-4">
      <h2 id={`${id}-heading`} className="text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The documentation page, with its own top bar. A link from elsewhere in the console may name
 * a section (/docs#section): the page is drawn after the browser's own look for the fragment,
 * so it scrolls there itself once drawn. At once rather than smoothly (the page's default), so
 * the code boxes above, which load after it, cannot stop the scroll short of its target.
 */
export function DocsPage() {
  useEffect(() => {
    const sectionId = window.location.hash.slice(1);
    if (sectionId) {
      document.getElementById(sectionId)?.scrollIntoView({ block: 'start', behavior: 'instant' });
    }
  }, []);

  return (
    <div className="flex min-h-screen flex-col bg-background">
      <DocsNavigation />
      <main className="mx-auto grid w-full max-w-7xl flex-1 gap-8 px-4 py-8 sm:px-6 lg:grid-cols-[12rem_minmax(0,1fr)] lg:px-8">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm lg:grid lg:gap-2">
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="rounded text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="grid min-w-0 gap-12">
          <PageHeading
            title="Documentation"
            description="Everything a program needs to register, log in and keep its users' sessions with Latchkey."
          />
          <DocsSection id="quick-start">
            <QuickStart />
          </DocsSection>
          <DocsSection id="features">
            <ul className="grid list-disc gap-1.5 pl-5 text-sm sm:grid-cols-2">
              {DOCUMENTED_FEATURES.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
            <p className="text-sm text-muted-foreground">All data is kept in PostgreSQL.</p>
          </DocsSection>
          <DocsSection id="csharp-client">
            <CSharpClientSection />
          </DocsSection>
          <DocsSection id="sdks">
            <p className="text-sm text-muted-foreground">
              A client library per language makes every call below, checks each answer&apos;s
              signature, nonce and time against your application&apos;s public key, runs the
              heartbeat, verifies offline licences and gives a hashed machine id. Install it from
              this server; the Integration page shows a whole program built on the same calls for
              your application.
            </p>
            <div className="grid gap-4">
              {sampleLanguages.map((language) => (
                <SdkInstall
                  key={language}
                  language={language}
                  description={SDK_PACKAGE_DESCRIPTIONS[language]}
                />
              ))}
            </div>
          </DocsSection>
          <DocsSection id="endpoints">
            <EndpointReference />
          </DocsSection>
          <DocsSection id="codes">
            <p className="text-sm text-muted-foreground">
              Every answer carries one of these codes; program against the code, not the message.
              Refusals (a wrong password, an expired account, …) are HTTP 200 with{' '}
              <code className="font-mono">success: false</code>.
            </p>
            <ClientApiCodesTable />
          </DocsSection>
          <DocsSection id="licences">
            <LicensesGuide />
          </DocsSection>
          <DocsSection id="devices">
            <DevicesGuide />
          </DocsSection>
          <DocsSection id="variables">
            <VariablesGuide />
          </DocsSection>
          <DocsSection id="downloads">
            <DownloadsGuide />
          </DocsSection>
          <DocsSection id="signatures">
            <MarkdownView
              markdown={markdownSection(clientApiMarkdown, 'Signed responses')}
              headingLevel={3}
            />
          </DocsSection>
          <DocsSection id="implementation">
            <ImplementationGuide />
          </DocsSection>
          <DocsSection id={KEYAUTH_MIGRATION_SECTION.id}>
            <KeyauthMigrationGuide />
          </DocsSection>
        </div>
      </main>
    </div>
  );
}
