import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function ActivityLogsPage() {
  return (
    <SignedInLayout>
      <PageHeading title="Activity Logs" />
    </SignedInLayout>
  );
}
