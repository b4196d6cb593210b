import type { LucideIcon } from 'lucide-react';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { cn } from '@/lib/utils.ts';

export interface Feature {
  icon: LucideIcon;
  title: string;
  description: string;
}

export function FeatureCard({ feature, className }: { feature: Feature; className?: string }) {
  const Icon = feature.icon;
  return (
    <Card
      className={cn(
        'group gap-4 bg-card/80 backdrop-blur-sm transition-[border-color,box-shadow,translate] hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md motion-reduce:hover:translate-y-0',
        className,
      )}
    >
      <CardHeader className="gap-3">
        <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary ring-1 ring-primary/15 transition-colors group-hover:bg-primary group-hover:text-primary-foreground">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <CardTitle className="text-base">{feature.title}</CardTitle>
      </CardHeader>
      <CardContent>
        <CardDescription className="leading-relaxed">{feature.description}</CardDescription>
      </CardContent>
    </Card>
  );
}

export function FeatureCardGrid({
  features,
  className,
}: {
  features: readonly Feature[];
  className?: string;
}) {
  return (
    <ul className={cn('grid gap-4 sm:grid-cols-2 lg:grid-cols-3', className)}>
      {features.map((feature) => (
        <li key={feature.title} className="flex">
          <FeatureCard feature={feature} className="flex-1" />
        </li>
      ))}
    </ul>
  );
}
