import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Table, TableBody, TableCell, TableRow } from './table.tsx';

/** jsdom lays nothing out, so the scroll box's geometry is given by hand. */
function setGeometry(
  element: HTMLElement,
  geometry: { clientWidth: number; scrollWidth: number; scrollLeft: number },
) {
  for (const [key, value] of Object.entries(geometry)) {
    Object.defineProperty(element, key, { configurable: true, value });
  }
}

function renderTable() {
  render(
    <Table label="Users">
      <TableBody>
        <TableRow>
          <TableCell>alice</TableCell>
          <TableCell pinned>actions</TableCell>
        </TableRow>
      </TableBody>
    </Table>,
  );
  return screen.getByRole('region', { name: 'Users' });
}

describe('Table', () => {
  it('marks the clipped edges and becomes a tab stop only while it can scroll', () => {
    const region = renderTable();
    expect(region.hasAttribute('tabindex')).toBe(false);
    expect(region.hasAttribute('data-clipped-end')).toBe(false);

    setGeometry(region, { clientWidth: 308, scrollWidth: 1183, scrollLeft: 0 });
    fireEvent.scroll(region);
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.hasAttribute('data-clipped-end')).toBe(true);
    expect(region.hasAttribute('data-clipped-start')).toBe(false);

    setGeometry(region, { clientWidth: 308, scrollWidth: 1183, scrollLeft: 875 });
    fireEvent.scroll(region);
    expect(region.hasAttribute('data-clipped-start')).toBe(true);
    expect(region.hasAttribute('data-clipped-end')).toBe(false);
  });

  it('pins a cell to the right edge', () => {
    renderTable();
    expect(screen.getByRole('cell', { name: 'actions' }).classList).toContain('sticky');
  });
});
