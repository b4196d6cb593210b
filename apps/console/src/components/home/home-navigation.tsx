import { LayoutDashboard } from 'lucide-react';
import { PageTopBar } from '@/components/layout/page-top-bar.tsx';

/** The home page's own top bar: Dashboard, theme toggle, the menu of every page and Sign Out. */
export function HomeNavigation() {
  return (
    <PageTopBar
      brand="signed-in"
      links={[{ href: '/dashboard', label: 'Dashboard', icon: LayoutDashboard }]}
      isCompact
    />
  );
}
