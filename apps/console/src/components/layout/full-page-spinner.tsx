import { Spinner } from '@/components/ui/spinner.tsx';

export function FullPageSpinner() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center bg-background">
      <div className="flex flex-col items-center gap-3">
        <Spinner className="size-8 text-primary" />
        <p className="text-sm font-medium text-muted-foreground">Loading...</p>
      </div>
    </div>
  );
}
