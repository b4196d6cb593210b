import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { DeferredTooltip } from '@/components/ui/deferred-tooltip.tsx';
import { useTheme } from '@/hooks/use-theme.ts';
import { cn } from '@/lib/utils.ts';

export function ThemeToggle({ className }: { className?: string }) {
  const { theme, toggleTheme } = useTheme();
  const nextThemeLabel = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';

  return (
    // On every page's header, the landing page's included: its tooltip must not weigh on the
    // first paint.
    <DeferredTooltip content={nextThemeLabel}>
      <Button
        variant="ghost"
        size="icon"
        className={cn('rounded-full', className)}
        aria-label="Toggle theme"
        aria-pressed={theme === 'dark'}
        onClick={toggleTheme}
      >
        {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
      </Button>
    </DeferredTooltip>
  );
}
