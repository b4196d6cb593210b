import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';

export function CodeEditorPage() {
  return (
    <SignedInLayout>
      <PageHeading title="Code Editor" />
    </SignedInLayout>
  );
}
