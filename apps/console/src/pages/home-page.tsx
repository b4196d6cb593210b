import { Globe, KeyRound, Lock, ShieldCheck, Users, Zap } from 'lucide-react';
import { HomeNavigation } from '@/components/home/home-navigation.tsx';
import { HomeStats } from '@/components/home/home-stats.tsx';
import { WelcomeBanner } from '@/components/home/welcome-banner.tsx';
import { SiteFooter } from '@/components/layout/site-footer.tsx';
import { FeatureCardGrid, type Feature } from '@/components/marketing/feature-card.tsx';
import { SectionHeading } from '@/components/marketing/section-heading.tsx';
import { useAuth } from '@/hooks/use-auth.ts';

const HOME_FEATURES: readonly Feature[] = [
  {
    icon: Zap,
    title: 'Lightning Fast',
    description: 'Sign-ins and licence checks answer in under 50ms on average.',
  },
  {
    icon: ShieldCheck,
    title: 'Enterprise Security',
    description: 'Argon2id hashing, secure sessions and data isolated to your account.',
  },
  {
    icon: KeyRound,
    title: 'API Management',
    description: 'One API key per application, ready to paste into your client code.',
  },
  {
    icon: Users,
    title: 'User Management',
    description: 'Create, pause, expire and delete end users, and reset their hardware IDs.',
  },
  {
    icon: Globe,
    title: 'Global Scale',
    description: 'A stateless JSON REST API that serves your users wherever they are.',
  },
  {
    icon: Lock,
    title: 'Secure by Default',
    description: 'HWID locking, rate limiting and a blacklist protect every application.',
  },
];

export function HomePage() {
  const { user } = useAuth();
  const name = user?.firstName || user?.email || '';

  return (
    <div className="flex min-h-screen flex-col bg-background">
      <HomeNavigation />
      <main className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-12 px-4 py-10 sm:px-6 lg:px-8">
        <WelcomeBanner name={name} />
        <HomeStats />
        <section aria-labelledby="home-features-heading" className="flex flex-col gap-10">
          <SectionHeading
            titleId="home-features-heading"
            title="Why developers choose Latchkey"
            description="Everything you need to protect your software, in one place."
          />
          <FeatureCardGrid features={HOME_FEATURES} />
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
