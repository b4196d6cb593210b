import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableDefinition } from './data-table.tsx';

interface Planet {
  id: number;
  name: string;
  moons: number;
}

const planets: Planet[] = [
  { id: 3, name: 'Earth', moons: 1 },
  { id: 4, name: 'Mars', moons: 2 },
];

const planetsTable: DataTableDefinition<Planet> = {
  label: 'Planets',
  getRowKey: (planet) => planet.id,
  getRowProps: (planet) => ({ 'data-testid': `planet-${planet.id}` }),
  columns: [
    { header: 'Name', cellClassName: 'font-medium', cell: (planet) => planet.name },
    {
      header: 'Moons',
      cellProps: (planet) => ({
        className: planet.moons > 1 ? 'text-primary' : undefined,
        title: `${planet.moons} moons`,
        'data-many': planet.moons > 1 || undefined,
      }),
      cell: (planet) => planet.moons,
    },
    {
      header: 'Actions',
      isHeaderHidden: true,
      isPinned: true,
      cell: (planet) => <button type="button">Visit {planet.name}</button>,
    },
  ],
};

describe('DataTable', () => {
  it('draws a heading per column and a cell per column in each row, in a named region', () => {
    render(<DataTable table={planetsTable} rows={planets} />);
    const region = screen.getByRole('region', { name: 'Planets' });
    expect(
      within(region)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Moons', 'Actions']);
    const mars = within(screen.getByTestId('planet-4'));
    expect(mars.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Mars',
      '2',
      'Visit Mars',
    ]);
  });

  it("gives a cell the column's class, the row's own attributes, and pins the actions", () => {
    render(<DataTable table={planetsTable} rows={planets} />);
    const [earthName, earthMoons] = within(screen.getByTestId('planet-3')).getAllByRole('cell');
    const [, marsMoons, marsActions] = within(screen.getByTestId('planet-4')).getAllByRole('cell');
    expect(earthName!.className).toContain('font-medium');
    expect(earthMoons!.title).toBe('1 moons');
    expect(earthMoons!.hasAttribute('data-many')).toBe(false);
    expect(marsMoons!.getAttribute('data-many')).toBe('true');
    expect(marsMoons!.className).toContain('text-primary');
    expect(marsActions!.hasAttribute('data-pinned')).toBe(true);
    // A hidden heading is still read to screen readers.
    expect(screen.getByText('Actions').className).toContain('sr-only');
  });

  it('draws only the headings when there are no rows', () => {
    render(<DataTable table={planetsTable} rows={[]} />);
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });
});
