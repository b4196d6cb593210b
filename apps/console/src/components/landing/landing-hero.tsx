import { ArrowRight, BookOpen, ShieldCheck } from 'lucide-react';
import { Link } from 'wouter';
import { useGoToSection } from '@/components/layout/section-link.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';

export function LandingHero() {
  const goToSection = useGoToSection();

  return (
    <section
      aria-labelledby="hero-heading"
      className="relative px-4 pt-20 pb-16 sm:px-6 sm:pt-28 lg:px-8"
    >
      <div className="mx-auto flex max-w-4xl flex-col items-center text-center">
        <Badge variant="outline" className="gap-1.5 bg-background/70 px-3 py-1 backdrop-blur">
          <ShieldCheck className="text-primary" aria-hidden="true" />
          Authentication as a service for desktop software
        </Badge>
        <h1
          id="hero-heading"
          className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-6xl"
        >
          Protect your software with{' '}
          <span className="bg-gradient-to-r from-primary to-violet-500 bg-clip-text text-transparent dark:to-fuchsia-400">
            accounts and licences
          </span>{' '}
          in minutes
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-pretty text-muted-foreground">
          Create an application, drop its API key into your program, and let your users register,
          sign in and stay licensed. Hardware locking, expiry, blacklists and live statistics come
          built in.
        </p>
        <div className="mt-10 flex flex-col items-center gap-3 sm:flex-row">
          <Button asChild size="lg" className="shadow-lg shadow-primary/25">
            <Link href="/firebase-login">
              Get Started
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button
            size="lg"
            variant="outline"
            className="bg-background/70 backdrop-blur"
            onClick={() => goToSection('docs')}
          >
            <BookOpen aria-hidden="true" />
            View Documentation
          </Button>
        </div>
        <p className="mt-6 text-sm text-muted-foreground">
          C# WinForms, Python, Node.js and C++ samples included.
        </p>
      </div>
    </section>
  );
}
