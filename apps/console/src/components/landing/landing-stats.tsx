import { Activity } from 'lucide-react';

const MARKETING_STATS = [
  { value: '99.9%', label: 'Uptime' },
  { value: '<50ms', label: 'Average response' },
  { value: '24/7', label: 'Support' },
] as const;

export function LandingStats() {
  return (
    <section
      id="dashboard"
      aria-labelledby="stats-heading"
      className="scroll-mt-20 px-4 py-16 sm:px-6 lg:px-8"
    >
      <div className="mx-auto max-w-5xl overflow-hidden rounded-2xl border border-border bg-card/80 shadow-sm backdrop-blur-sm">
        <div className="flex flex-col items-center gap-2 border-b border-border px-6 py-8 text-center">
          <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Activity className="size-5" aria-hidden="true" />
          </span>
          <h2 id="stats-heading" className="text-2xl font-bold tracking-tight">
            Built for production
          </h2>
          <p className="max-w-xl text-muted-foreground">
            Watch sign-ins, sessions and violations as they happen in the live dashboard.
          </p>
        </div>
        <dl className="grid divide-y divide-border sm:grid-cols-3 sm:divide-x sm:divide-y-0">
          {MARKETING_STATS.map((stat) => (
            <div key={stat.label} className="flex flex-col items-center gap-1 px-6 py-8">
              <dt className="order-2 text-sm font-medium text-muted-foreground">{stat.label}</dt>
              <dd className="order-1 text-4xl font-bold tracking-tight text-primary tabular-nums">
                {stat.value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
