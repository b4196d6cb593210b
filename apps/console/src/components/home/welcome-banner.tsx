import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button.tsx';

export function WelcomeBanner({ name }: { name: string }) {
  return (
    <section
      aria-labelledby="welcome-heading"
      className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary to-violet-600 px-6 py-10 text-primary-foreground shadow-lg shadow-primary/20 sm:px-10 dark:from-indigo-500 dark:to-violet-600 dark:text-white"
    >
      <div
        aria-hidden="true"
        className="absolute -top-20 -right-20 size-64 rounded-full bg-white/10 blur-2xl"
      />
      <div className="relative flex flex-col gap-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h1 id="welcome-heading" className="text-3xl font-bold tracking-tight">
            Welcome back, {name}!
          </h1>
          <p className="mt-2 max-w-xl text-base opacity-90">
            Your authentication platform is ready. Manage applications, API keys and end users from
            the dashboard.
          </p>
        </div>
        <Button
          asChild
          size="lg"
          variant="secondary"
          className="bg-white text-indigo-700 hover:bg-white/90 focus-visible:ring-white/70 focus-visible:ring-offset-indigo-600"
        >
          <Link href="/dashboard">
            Go to Dashboard
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
