import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function UserManagementPage() {
  return (
    <SignedInLayout>
      <PageHeading title="User Management" />
    </SignedInLayout>
  );
}
