import { describe, expect, it } from 'vitest';
import {
  EMPTY_SHOP_CONNECTION_FIELDS,
  formatOrderAmount,
  toCreateShopConnectionRequest,
  toShopFieldProblem,
  toUpdateShopConnectionRequest,
  validateShopConnection,
  type ShopConnectionFields,
} from './shop-display.ts';

const PLAN_ID = '10000000-0000-4000-8000-000000000001';
const row = (productId: string, quantity = '1', planId = PLAN_ID) => ({
  rowKey: productId,
  productId,
  planId,
  quantity,
});

describe('shop display', () => {
  it('formats an amount from its minor unit, by its currency', () => {
    expect(formatOrderAmount(1900, 'USD')).toBe('$19.00');
    expect(formatOrderAmount(1500, 'JPY')).toBe('¥1,500');
    expect(formatOrderAmount(1234, 'EUR')).toBe('€12.34');
    expect(formatOrderAmount(990, null)).toBe('9.90');
    expect(formatOrderAmount(null, 'USD')).toBe('—');
  });

  it('reads the field a refusal names, with its row and column', () => {
    expect(toShopFieldProblem('secret: Please paste the signing secret the shop shows')).toEqual({
      field: 'secret',
      row: null,
      column: null,
      message: 'Please paste the signing secret the shop shows',
    });
    expect(toShopFieldProblem('products.2.planId: Please choose a plan')).toEqual({
      field: 'products',
      row: 2,
      column: 'planId',
      message: 'Please choose a plan',
    });
    expect(toShopFieldProblem('Database is restarting')).toBeNull();
  });

  it('checks the form in the server words, the secret only where the shop issues it', () => {
    const sellix: ShopConnectionFields = {
      ...EMPTY_SHOP_CONNECTION_FIELDS,
      provider: 'sellix',
      name: 'Store',
    };
    expect(validateShopConnection(sellix, { isCreating: true })).toBe(
      'secret: Please paste the signing secret the shop shows',
    );
    // Editing keeps the current secret when none is typed.
    expect(validateShopConnection(sellix, { isCreating: false })).toBeNull();
    const lemons = { ...sellix, provider: 'lemonsqueezy' as const };
    expect(validateShopConnection(lemons, { isCreating: true })).toBeNull();
    expect(
      validateShopConnection({ ...lemons, products: [row('a', '0')] }, { isCreating: true }),
    ).toBe('products.0.quantity: quantity must be at least 1');
    expect(
      validateShopConnection({ ...lemons, products: [row('a'), row('a')] }, { isCreating: true }),
    ).toBe('products.1.productId: a is mapped twice');
    expect(
      validateShopConnection({ ...lemons, products: [row('a', '1', '')] }, { isCreating: true }),
    ).toBe('products.0.planId: Please choose a plan');
  });

  it('sends only the fields the provider takes; a blank secret keeps the current one', () => {
    const fields: ShopConnectionFields = {
      provider: 'gumroad',
      name: ' Gum ',
      testMode: true,
      secret: 'left over',
      apiKey: 'left over',
      products: [row(' p1 ', '3')],
    };
    expect(toCreateShopConnectionRequest(fields)).toEqual({
      provider: 'gumroad',
      name: 'Gum',
      testMode: true,
      secret: null,
      apiKey: null,
      products: [{ productId: 'p1', planId: PLAN_ID, quantity: 3 }],
    });
    // Only Stripe takes an API key.
    expect(toCreateShopConnectionRequest({ ...fields, provider: 'paddle' }).apiKey).toBeNull();
    expect(
      toUpdateShopConnectionRequest({ ...fields, provider: 'stripe', secret: ' ', apiKey: 'rk_1' }),
    ).toEqual({
      name: 'Gum',
      testMode: true,
      apiKey: 'rk_1',
      products: [{ productId: 'p1', planId: PLAN_ID, quantity: 3 }],
    });
  });
});
