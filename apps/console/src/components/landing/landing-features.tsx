import { Globe, KeyRound, Lock, ShieldCheck, Users, Zap } from 'lucide-react';
import { FeatureCardGrid, type Feature } from '@/components/marketing/feature-card.tsx';
import { SectionHeading } from '@/components/marketing/section-heading.tsx';

const LANDING_FEATURES: readonly Feature[] = [
  {
    icon: Zap,
    title: 'Lightning Fast',
    description: 'Under 50ms average response from a lean API path built for bursts of sign-ins.',
  },
  {
    icon: ShieldCheck,
    title: 'Enterprise Security',
    description:
      'Argon2id password hashing, HttpOnly sessions and strict isolation between accounts.',
  },
  {
    icon: KeyRound,
    title: 'API Key Management',
    description:
      'Every application gets its own API key to reveal, copy and drop straight into your client.',
  },
  {
    icon: Users,
    title: 'User Management',
    description: 'Create, edit, pause and expire end users, and bind or reset their hardware IDs.',
  },
  {
    icon: Globe,
    title: 'Global Scale',
    description: 'A stateless JSON REST API that answers your users wherever they are.',
  },
  {
    icon: Lock,
    title: 'Secure by Default',
    description:
      'Rate limiting, a blacklist and hardware locking are ready before you write a line of code.',
  },
];

export function LandingFeatures() {
  return (
    <section
      id="features"
      aria-labelledby="features-heading"
      className="scroll-mt-20 px-4 py-20 sm:px-6 lg:px-8"
    >
      <div className="mx-auto max-w-7xl">
        <SectionHeading
          titleId="features-heading"
          eyebrow="Features"
          title="Everything your licensing needs"
          description="Stop maintaining a homegrown auth server. Focus on your product while Latchkey keeps accounts, keys and devices in check."
        />
        <FeatureCardGrid features={LANDING_FEATURES} className="mt-12" />
      </div>
    </section>
  );
}
