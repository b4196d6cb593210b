import { CircleCheckBig } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';

export function WelcomeCard({
  displayName,
  email,
  isFinishingSignIn,
}: {
  displayName: string | null;
  email: string | null;
  isFinishingSignIn: boolean;
}) {
  return (
    <Card className="w-full max-w-md gap-8 shadow-xl shadow-primary/5">
      <CardHeader className="items-center gap-3 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-success/15 text-success">
          <CircleCheckBig className="size-6" aria-hidden="true" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight">Welcome, {displayName || 'User'}</h1>
        {email && <p className="text-sm font-medium text-foreground/80">{email}</p>}
        <CardDescription>You are now logged in with Firebase authentication.</CardDescription>
        {isFinishingSignIn && (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner />
            Setting up your workspace
          </p>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row">
        <Button asChild className="flex-1">
          <Link href="/dashboard">Go to Dashboard</Link>
        </Button>
        <Button asChild variant="outline" className="flex-1">
          <Link href="/">Back to Home</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
