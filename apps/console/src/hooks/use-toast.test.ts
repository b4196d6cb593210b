import { describe, expect, it } from 'vitest';
import { TOAST_LIMIT, reducer, type ToasterToast } from './use-toast.ts';

const toastWithId = (id: string): ToasterToast => ({ id, title: id, open: true });

describe('toast store', () => {
  it('keeps only the newest toast', () => {
    let state = { toasts: [] as ToasterToast[] };
    state = reducer(state, { type: 'ADD_TOAST', toast: toastWithId('first') });
    state = reducer(state, { type: 'ADD_TOAST', toast: toastWithId('second') });

    expect(TOAST_LIMIT).toBe(1);
    expect(state.toasts.map((toast) => toast.id)).toEqual(['second']);
  });

  it('closes a dismissed toast before removing it', () => {
    let state = { toasts: [toastWithId('only')] };
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: 'only' });
    expect(state.toasts[0]?.open).toBe(false);

    state = reducer(state, { type: 'REMOVE_TOAST', toastId: 'only' });
    expect(state.toasts).toEqual([]);
  });
});
