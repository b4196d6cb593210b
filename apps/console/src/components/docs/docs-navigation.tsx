import { House, LayoutDashboard } from 'lucide-react';
import { PageTopBar } from '@/components/layout/page-top-bar.tsx';

/** The documentation page's own top bar: Home, Dashboard, theme toggle, the menu of every page and Sign Out. */
export function DocsNavigation() {
  return (
    <PageTopBar
      brand="docs"
      links={[
        { href: '/', label: 'Home', icon: House },
        { href: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
      ]}
      isCompact
    />
  );
}
