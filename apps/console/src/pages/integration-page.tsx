import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function IntegrationPage() {
  return (
    <SignedInLayout>
      <PageHeading title="Integration Examples" />
    </SignedInLayout>
  );
}
