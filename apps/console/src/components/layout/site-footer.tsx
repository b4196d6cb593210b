import { cn } from '@/lib/utils.ts';
import { BRAND_NAME } from './brand-logo.tsx';

export function SiteFooter({ className }: { className?: string }) {
  return (
    <footer className={cn('border-t border-border bg-background/60 backdrop-blur', className)}>
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-2 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:px-6 lg:px-8">
        <p>© 2024 {BRAND_NAME}. All rights reserved.</p>
        <p>Authentication and licensing for desktop software.</p>
      </div>
    </footer>
  );
}
