import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TooltipProvider } from '@/components/ui/tooltip.tsx';
import { THEME_STORAGE_KEY, applyTheme, readStoredTheme } from '@/lib/theme.ts';
import { ThemeProvider } from './theme-provider.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

function renderToggle() {
  render(
    <ThemeProvider>
      <TooltipProvider>
        <ThemeToggle />
      </TooltipProvider>
    </ThemeProvider>,
  );
  return screen.getByRole('button', { name: 'Toggle theme' });
}

describe('theme', () => {
  it('defaults to light when nothing valid is stored', () => {
    expect(readStoredTheme()).toBe('light');
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(readStoredTheme()).toBe('light');
  });

  it('adds and removes the dark class on the root element', () => {
    applyTheme('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    applyTheme('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('toggles, applies and persists the theme', () => {
    const toggle = renderToggle();
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(toggle);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(toggle);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it('starts from the stored theme', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    const toggle = renderToggle();

    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });
});
