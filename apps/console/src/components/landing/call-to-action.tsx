import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button.tsx';

export function CallToAction() {
  return (
    <section
      id="pricing"
      aria-labelledby="cta-heading"
      className="scroll-mt-20 px-4 py-20 sm:px-6 lg:px-8"
    >
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-primary px-6 py-16 text-center text-primary-foreground shadow-xl shadow-primary/20 sm:px-12">
        <div
          aria-hidden="true"
          className="absolute -top-24 -right-24 size-72 rounded-full bg-white/10 blur-2xl"
        />
        <div
          aria-hidden="true"
          className="absolute -bottom-24 -left-24 size-72 rounded-full bg-black/10 blur-2xl"
        />
        <div className="relative">
          <h2
            id="cta-heading"
            className="text-3xl font-bold tracking-tight text-balance sm:text-4xl"
          >
            Ready to protect your software?
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty opacity-90">
            Sign in with Google and get your own isolated environment, with its own API keys and
            user management, in under a minute.
          </p>
          <Button
            asChild
            size="lg"
            variant="secondary"
            className="mt-8 bg-primary-foreground text-primary hover:bg-primary-foreground/90 focus-visible:ring-primary-foreground/70 focus-visible:ring-offset-primary"
          >
            <Link href="/firebase-login">
              Start Building Now
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
