import { useEffect, useState } from 'react';
import { CallToAction } from '@/components/landing/call-to-action.tsx';
import { FeatureGroups } from '@/components/landing/feature-groups.tsx';
import { LandingFeatures } from '@/components/landing/landing-features.tsx';
import { LandingHero } from '@/components/landing/landing-hero.tsx';
import { LandingStats } from '@/components/landing/landing-stats.tsx';
import { ParticleBackground } from '@/components/landing/particle-background.tsx';
import { SplashScreen } from '@/components/landing/splash-screen.tsx';
import { scrollToSection } from '@/components/layout/section-link.tsx';
import { SignedOutHeader } from '@/components/layout/signed-out-header.tsx';
import { SiteFooter } from '@/components/layout/site-footer.tsx';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion.ts';
import { hasSplashPlayedThisSession, markSplashPlayed } from '@/lib/splash-session.ts';

export function LandingPage() {
  const [isSplashVisible, setIsSplashVisible] = useState(() => !hasSplashPlayedThisSession());
  const isReducedMotion = usePrefersReducedMotion();

  // A section link from another page lands here as /#section; scroll once it exists.
  useEffect(() => {
    if (isSplashVisible) return;
    const sectionId = window.location.hash.slice(1);
    if (sectionId) scrollToSection(sectionId, isReducedMotion);
  }, [isSplashVisible, isReducedMotion]);

  return (
    <div className="relative min-h-screen overflow-x-clip bg-background">
      <div aria-hidden="true" className="pointer-events-none fixed inset-0">
        <div className="absolute -top-40 left-1/2 h-[32rem] w-[60rem] -translate-x-1/2 rounded-full bg-primary/10 blur-3xl dark:bg-primary/15" />
        <div className="absolute right-[-10rem] bottom-[-10rem] h-[28rem] w-[28rem] rounded-full bg-violet-500/10 blur-3xl" />
      </div>
      <ParticleBackground />
      {isSplashVisible ? (
        <SplashScreen
          onFinished={() => {
            markSplashPlayed();
            setIsSplashVisible(false);
          }}
        />
      ) : (
        <div className="relative flex min-h-screen animate-reveal flex-col">
          <SignedOutHeader />
          <main className="flex-1">
            <LandingHero />
            <LandingFeatures />
            <LandingStats />
            <FeatureGroups />
            <CallToAction />
          </main>
          <SiteFooter />
        </div>
      )}
    </div>
  );
}
