import { useParams } from 'wouter';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function ApplicationPage() {
  const { id } = useParams<{ id: string }>();

  return (
    <SignedInLayout>
      <PageHeading title="Application" description={`Application ${id}`} />
    </SignedInLayout>
  );
}
