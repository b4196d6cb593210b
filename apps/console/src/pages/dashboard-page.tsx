import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function DashboardPage() {
  return (
    <SignedInLayout>
      <PageHeading title="Dashboard" />
    </SignedInLayout>
  );
}
