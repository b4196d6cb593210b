import {
  Ban,
  Bell,
  ChartColumn,
  CodeXml,
  Cpu,
  KeyRound,
  RefreshCw,
  UserCog,
  type LucideIcon,
} from 'lucide-react';
import { Check } from 'lucide-react';
import { SectionHeading } from '@/components/marketing/section-heading.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';

interface FeatureGroup {
  icon: LucideIcon;
  title: string;
  items: readonly string[];
}

/** The product's listed features, grouped into eight cards. */
const FEATURE_GROUPS: readonly FeatureGroup[] = [
  {
    icon: KeyRound,
    title: 'Authentication',
    items: [
      'User registration and login',
      'API key authentication',
      'Session tracking',
      'Password hashing',
    ],
  },
  {
    icon: Cpu,
    title: 'Device Locking',
    items: ['HWID locking to the first device', 'Prevents account sharing', 'Hardware ID reset'],
  },
  {
    icon: RefreshCw,
    title: 'Release Control',
    items: ['Forced application version updates', 'Custom per-application messages'],
  },
  {
    icon: UserCog,
    title: 'Access Control',
    items: ['Account expiry', 'Pausing or disabling users', 'Role-based access control'],
  },
  {
    icon: Ban,
    title: 'Threat Protection',
    items: ['Blacklist by IP address, username, email or hardware ID', 'Rate limiting'],
  },
  {
    icon: ChartColumn,
    title: 'Live Insights',
    items: ['Live admin dashboard', 'Live statistics', 'Activity logs'],
  },
  {
    icon: Bell,
    title: 'Notifications',
    items: [
      'Webhook and chat-service notifications',
      'Login, logout, failed attempts and violations',
    ],
  },
  {
    icon: CodeXml,
    title: 'Developer Experience',
    items: [
      'JSON REST API',
      'C# WinForms integration and code samples',
      'Dark and light themes',
      'Responsive layout',
    ],
  },
];

export function FeatureGroups() {
  return (
    <section
      id="docs"
      aria-labelledby="docs-heading"
      className="scroll-mt-20 px-4 py-20 sm:px-6 lg:px-8"
    >
      <div className="mx-auto max-w-7xl">
        <SectionHeading
          titleId="docs-heading"
          eyebrow="Capabilities"
          title="One API for the whole licence lifecycle"
          description="A JSON REST API with a C# WinForms integration and ready-to-run code samples: register, log in, verify and keep sessions alive."
        />
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURE_GROUPS.map((group) => (
            <li key={group.title} className="flex">
              <Card className="flex-1 gap-4 bg-card/80 backdrop-blur-sm">
                <CardHeader className="flex-row items-center gap-3">
                  <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                    <group.icon className="size-4" aria-hidden="true" />
                  </span>
                  <CardTitle className="text-base">{group.title}</CardTitle>
                </CardHeader>
                <CardContent>
                  <ul className="flex flex-col gap-2 text-sm text-muted-foreground">
                    {group.items.map((item) => (
                      <li key={item} className="flex gap-2">
                        <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
                        <span>{item}</span>
                      </li>
                    ))}
                  </ul>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
