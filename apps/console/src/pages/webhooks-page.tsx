import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function WebhooksPage() {
  return (
    <SignedInLayout>
      <PageHeading title="Webhooks" />
    </SignedInLayout>
  );
}
