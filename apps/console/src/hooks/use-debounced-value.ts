import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `delayMs`: a search box asks once per pause. */
export function useDebouncedValue<Value>(value: Value, delayMs = 300): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
