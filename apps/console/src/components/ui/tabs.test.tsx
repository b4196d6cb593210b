import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs.tsx';

function Planets({ keepMoonsMounted = false }: { keepMoonsMounted?: boolean }) {
  return (
    <Tabs defaultValue="earth">
      <TabsList aria-label="Planets">
        <TabsTrigger value="earth">Earth</TabsTrigger>
        <TabsTrigger value="moons">Moons</TabsTrigger>
      </TabsList>
      <TabsContent value="earth">Blue</TabsContent>
      <TabsContent value="moons" forceMount={keepMoonsMounted}>
        <input aria-label="Moon name" />
      </TabsContent>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('pairs each tab with its panel for assistive technology', () => {
    render(<Planets />);
    const earth = screen.getByRole('tab', { name: 'Earth' });
    const panel = screen.getByRole('tabpanel', { name: 'Earth' });
    expect(earth.getAttribute('aria-selected')).toBe('true');
    expect(earth.getAttribute('aria-controls')).toBe(panel.id);
    expect(panel.getAttribute('aria-labelledby')).toBe(earth.id);
    expect(panel.textContent).toBe('Blue');
    expect(panel.tabIndex).toBe(0);
  });

  it('shows only the open tab’s panel, switching by click and by arrow key', async () => {
    const user = userEvent.setup();
    render(<Planets />);
    expect(screen.queryByLabelText('Moon name')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Moons' }));
    expect(screen.getByRole('tabpanel', { name: 'Moons' })).toBeTruthy();
    expect(screen.queryByText('Blue')).toBeNull();

    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Earth' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Blue')).toBeTruthy();
  });

  it('keeps a forceMount panel mounted while closed, marked inactive, so its state survives', async () => {
    const user = userEvent.setup();
    render(<Planets keepMoonsMounted />);
    const input = screen.getByLabelText<HTMLInputElement>('Moon name');
    expect(input.closest('[role="tabpanel"]')?.getAttribute('data-state')).toBe('inactive');

    await user.click(screen.getByRole('tab', { name: 'Moons' }));
    await user.type(input, 'Phobos');
    await user.click(screen.getByRole('tab', { name: 'Earth' }));
    await user.click(screen.getByRole('tab', { name: 'Moons' }));
    expect(screen.getByLabelText<HTMLInputElement>('Moon name').value).toBe('Phobos');
    expect(input.closest('[role="tabpanel"]')?.getAttribute('data-state')).toBe('active');
  });

  it('follows a controlled value, and reports the tab asked for', async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    function Controlled() {
      const [value, setValue] = useState('earth');
      return (
        <Tabs
          value={value}
          onValueChange={(next) => {
            asked.push(next);
            setValue(next);
          }}
        >
          <TabsList aria-label="Planets">
            <TabsTrigger value="earth">Earth</TabsTrigger>
            <TabsTrigger value="moons">Moons</TabsTrigger>
          </TabsList>
          <TabsContent value="earth">Blue</TabsContent>
          <TabsContent value="moons">Grey</TabsContent>
        </Tabs>
      );
    }
    render(<Controlled />);
    await user.click(screen.getByRole('tab', { name: 'Moons' }));
    // Radix reports a click twice (on press and on focus), as it does without our wrapper.
    expect(new Set(asked)).toEqual(new Set(['moons']));
    expect(screen.getByRole('tabpanel').textContent).toBe('Grey');
  });
});
