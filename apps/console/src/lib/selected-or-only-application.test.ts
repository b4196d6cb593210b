import { describe, expect, it } from 'vitest';
import { selectedOrOnlyApplication } from './selected-or-only-application.ts';

const orbit = { id: 7, name: 'Orbit' };
const comet = { id: 8, name: 'Comet' };

describe('selectedOrOnlyApplication', () => {
  it('is the selected application, among one or several', () => {
    expect(selectedOrOnlyApplication([orbit, comet], 8)).toBe(comet);
    expect(selectedOrOnlyApplication([orbit], 7)).toBe(orbit);
  });

  it('is the only application when none of them is selected', () => {
    expect(selectedOrOnlyApplication([orbit], null)).toBe(orbit);
    expect(selectedOrOnlyApplication([orbit], undefined)).toBe(orbit);
    // An id that is not (or no longer) the owner's selects nothing.
    expect(selectedOrOnlyApplication([orbit], 99)).toBe(orbit);
  });

  it('is none when there are several and none is selected, or none at all', () => {
    expect(selectedOrOnlyApplication([orbit, comet], null)).toBeNull();
    expect(selectedOrOnlyApplication([orbit, comet], 99)).toBeNull();
    expect(selectedOrOnlyApplication([], null)).toBeNull();
    // Not loaded yet.
    expect(selectedOrOnlyApplication(undefined, 7)).toBeNull();
  });
});
