import { describe, expect, it } from 'vitest';
import { getDeviceLabel, getDeviceName, getHwidTail } from './device-display.ts';

describe('getHwidTail', () => {
  it('shows the last 6 characters after an ellipsis', () => {
    expect(getHwidTail('HWID-BOB-01')).toBe('…BOB-01');
  });

  it('shows a HWID of 6 characters or fewer whole', () => {
    expect(getHwidTail('ABC-01')).toBe('ABC-01');
    expect(getHwidTail('A1')).toBe('A1');
  });

  it('counts an emoji as one character', () => {
    expect(getHwidTail('PC-😀😀😀😀😀😀')).toBe('…😀😀😀😀😀😀');
  });
});

describe('getDeviceLabel', () => {
  it('names a device by its name and the end of its HWID', () => {
    expect(getDeviceLabel({ name: 'Office PC', hwid: 'HWID-BOB-01' })).toBe('Office PC · …BOB-01');
  });

  it('tells two devices of one name apart', () => {
    const home = getDeviceLabel({ name: 'Office PC', hwid: 'SHARED-PREFIX-BOB-01' });
    const work = getDeviceLabel({ name: 'Office PC', hwid: 'SHARED-PREFIX-BOB-02' });
    expect(home).not.toBe(work);
  });

  it('names an unnamed device "Unnamed device"', () => {
    expect(getDeviceName({ name: null })).toBe('Unnamed device');
    expect(getDeviceLabel({ name: null, hwid: 'HWID-BOB-01' })).toBe('Unnamed device · …BOB-01');
  });
});
