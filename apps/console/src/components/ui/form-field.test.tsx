import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describeLengthLimit, InputField, TextareaField } from './form-field.tsx';

describe('describeLengthLimit', () => {
  it('counts from four fifths of the limit on, and says when the limit is reached', () => {
    expect(describeLengthLimit('a'.repeat(79), 100)).toBeNull();
    expect(describeLengthLimit('a'.repeat(80), 100)).toEqual({
      text: '80 / 100 characters',
      isAtLimit: false,
    });
    expect(describeLengthLimit('a'.repeat(100), 100)).toEqual({
      text: '100 / 100 characters: the limit',
      isAtLimit: true,
    });
  });

  it('says nothing of a field without a limit or without text of its own', () => {
    expect(describeLengthLimit('a'.repeat(500), undefined)).toBeNull();
    expect(describeLengthLimit(undefined, 10)).toBeNull();
  });
});

describe('a text field near its length limit', () => {
  it('shows its count and ties it to the control beside the hint', () => {
    render(
      <InputField
        id="name"
        label="Name"
        hint="What people see."
        value={'n'.repeat(95)}
        maxLength={100}
        onValueChange={() => {}}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(screen.getByText('95 / 100 characters')).toBeTruthy();
    expect(input.getAttribute('aria-describedby')).toBe('name-hint name-count');
  });

  it('shows no count far from the limit', () => {
    render(
      <TextareaField
        id="reason"
        label="Reason"
        value="Chargeback"
        maxLength={500}
        onValueChange={() => {}}
      />,
    );
    expect(screen.queryByText(/characters/)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Reason' }).getAttribute('aria-describedby')).toBe(
      null,
    );
  });
});
