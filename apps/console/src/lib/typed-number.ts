const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * A number as the owner typed it, for a contract to judge: a decimal or a negative keeps its
 * value, so the contract's "whole number" or range message explains it; anything else, empty
 * included, is NaN, which the contract refuses as not a number. Hexadecimal, exponents and
 * the like are not read, though Number() would read them.
 */
export function parseTypedNumber(text: string): number {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
}
