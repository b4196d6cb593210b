/**
 * The Docs page's section on moving a program from KeyAuth. Kept apart from the page, which
 * loads on its own, so the application page can link to the section without loading the docs.
 */
export const KEYAUTH_MIGRATION_SECTION = {
  id: 'moving-from-keyauth',
  title: 'Moving from KeyAuth',
} as const;

/** The in-app address of a Docs page section; the page scrolls to it once drawn. */
export function docsSectionHref(sectionId: string): string {
  return `/docs#${sectionId}`;
}
