import { BookOpen, House } from 'lucide-react';
import { PageTopBar } from '@/components/layout/page-top-bar.tsx';

/** The dashboard's own top bar: Home, Docs, theme toggle, the menu of every page and Sign Out. */
export function DashboardNavigation() {
  return (
    <PageTopBar
      brand="signed-in"
      links={[
        { href: '/', label: 'Home', icon: House },
        { href: '/docs', label: 'Docs', icon: BookOpen },
      ]}
      isCompact
    />
  );
}
