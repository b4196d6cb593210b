import {
  createShopConnectionRequestSchema,
  SHOP_SECRET_REQUIRED,
  shopProvidersWithApiKey,
  shopProvidersWithIssuedSecret,
  updateShopConnectionRequestSchema,
  type CreateShopConnectionRequest,
  type ShopConnection,
  type ShopOrderStatus,
  type ShopProvider,
  type UpdateShopConnectionRequest,
} from '@latchkey/contracts';
import type { BadgeVariant } from '@/components/ui/badge.tsx';
import { ApiError } from '@/lib/api.ts';
import { getServerMessage } from '@/hooks/use-owner-mutation.ts';
import { randomId } from '@/lib/random-id.ts';

export const SHOP_ORDER_STATUS_LABELS: Record<ShopOrderStatus, string> = {
  paid: 'Paid',
  renewed: 'Renewed',
  refunded: 'Refunded',
  chargeback: 'Chargeback',
  needs_mapping: 'Needs mapping',
  awaiting_email: 'Awaiting e-mail',
};

export const SHOP_ORDER_STATUS_BADGES: Record<ShopOrderStatus, BadgeVariant> = {
  paid: 'success',
  renewed: 'success',
  refunded: 'muted',
  chargeback: 'danger',
  needs_mapping: 'warning',
  awaiting_email: 'warning',
};

export const hasSecretField = (provider: ShopProvider) => provider !== 'gumroad';
export const isSecretRequired = (provider: ShopProvider) =>
  shopProvidersWithIssuedSecret.includes(provider);
export const hasApiKeyField = (provider: ShopProvider) =>
  shopProvidersWithApiKey.includes(provider);

/**
 * An amount in its currency's minor unit (cents), as the currency is written; the minor unit's
 * size is the currency's own (none for yen). Without a currency, two decimals.
 */
export function formatOrderAmount(amount: number | null, currency: string | null): string {
  if (amount === null) return '—';
  if (currency) {
    try {
      const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      return format.format(amount / 10 ** digits);
    } catch {
      // Not a currency Intl knows: the figure without a symbol, with the code beside it.
      return `${(amount / 100).toFixed(2)} ${currency}`;
    }
  }
  return (amount / 100).toFixed(2);
}

/** One row of the product → plan mapping as typed: the key count is text until sent. */
export interface ShopProductFields {
  /** Tells rows apart while they are added and removed; never sent. */
  rowKey: string;
  productId: string;
  planId: string;
  quantity: string;
}

export interface ShopConnectionFields {
  provider: ShopProvider;
  name: string;
  testMode: boolean;
  /** Written only: blank keeps the current one when editing. */
  secret: string;
  apiKey: string;
  products: ShopProductFields[];
}

export function emptyProductRow(): ShopProductFields {
  return { rowKey: randomId(), productId: '', planId: '', quantity: '1' };
}

export const EMPTY_SHOP_CONNECTION_FIELDS: ShopConnectionFields = {
  provider: 'stripe',
  name: '',
  testMode: false,
  secret: '',
  apiKey: '',
  products: [],
};

export function toShopConnectionFields(connection: ShopConnection): ShopConnectionFields {
  return {
    provider: connection.provider,
    name: connection.name,
    testMode: connection.testMode,
    secret: '',
    apiKey: '',
    products: connection.products.map((product) => ({
      rowKey: randomId(),
      productId: product.productId,
      planId: product.planId,
      quantity: String(product.quantity),
    })),
  };
}

function parseQuantity(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

const toProducts = (fields: ShopConnectionFields) =>
  fields.products.map((product) => ({
    productId: product.productId.trim(),
    planId: product.planId,
    quantity: parseQuantity(product.quantity),
  }));

export function toCreateShopConnectionRequest(
  fields: ShopConnectionFields,
): CreateShopConnectionRequest {
  return {
    provider: fields.provider,
    name: fields.name.trim(),
    testMode: fields.testMode,
    secret: hasSecretField(fields.provider) ? fields.secret.trim() || null : null,
    apiKey: hasApiKeyField(fields.provider) ? fields.apiKey.trim() || null : null,
    products: toProducts(fields),
  };
}

/** Only what a form can change; a blank secret or API key is left out, which keeps it. */
export function toUpdateShopConnectionRequest(
  fields: ShopConnectionFields,
): UpdateShopConnectionRequest {
  const secret = hasSecretField(fields.provider) ? fields.secret.trim() : '';
  const apiKey = hasApiKeyField(fields.provider) ? fields.apiKey.trim() : '';
  return {
    name: fields.name.trim(),
    testMode: fields.testMode,
    ...(secret ? { secret } : {}),
    ...(apiKey ? { apiKey } : {}),
    products: toProducts(fields),
  };
}

/**
 * A problem said about one field, as the server words it: `secret: …`, `products: …` or
 * `products.2.planId: …` (a row, counted from 0, and its column).
 */
export interface ShopFieldProblem {
  field: string;
  row: number | null;
  column: string | null;
  message: string;
}

const FIELD_PROBLEM =
  /^(provider|name|testMode|secret|apiKey|products)(?:\.(\d+)(?:\.(\w+))?)?: (.+)$/s;

export function toShopFieldProblem(message: string | null): ShopFieldProblem | null {
  const match = message === null ? null : FIELD_PROBLEM.exec(message);
  if (!match) return null;
  const [, field = '', row, column, text = ''] = match;
  return {
    field,
    row: row === undefined ? null : Number(row),
    column: column ?? null,
    message: text,
  };
}

/** A server refusal of a connection's form that names its field, to be shown at it. */
export function shopFieldRefusalOf(error: unknown): ShopFieldProblem | null {
  const [refused] = error instanceof ApiError ? error.fieldProblems : [];
  return toShopFieldProblem(
    refused ? `${refused.field}: ${refused.message}` : getServerMessage(error),
  );
}

/**
 * The connection's form checked as the server would check it (the same contract, the same
 * words), before any request: the first problem, in the server's `field: message` form so the
 * form shows it where a refusal would be shown; null when the fields may be sent.
 */
export function validateShopConnection(
  fields: ShopConnectionFields,
  { isCreating }: { isCreating: boolean },
): string | null {
  if (fields.name.trim() === '') return 'name: name is required';
  if (isCreating && isSecretRequired(fields.provider) && fields.secret.trim() === '') {
    return `secret: ${SHOP_SECRET_REQUIRED}`;
  }
  const result = isCreating
    ? createShopConnectionRequestSchema.safeParse(toCreateShopConnectionRequest(fields))
    : updateShopConnectionRequestSchema.safeParse(toUpdateShopConnectionRequest(fields));
  if (result.success) return null;
  const issue = result.error.issues[0];
  if (!issue) return null;
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
