import type { Plan, ShopConnection } from '@latchkey/contracts';
import { useId } from 'react';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { FormField, InputField } from '@/components/ui/form-field.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useSendShopTestEvent } from '@/hooks/use-shops.ts';
import { SHOP_ORDER_STATUS_LABELS } from './shop-display.ts';

interface TestEventFields {
  productId: string;
  buyerEmail: string;
}

export const TEST_EVENT_PRODUCT_REQUIRED = 'Please choose a product';

/**
 * Sends the connection a signed sample order of one of its mapped products, processed as the
 * shop's own would be (keys minted and mailed), marked as a test order.
 */
export function SendShopTestEventDialog({
  applicationId,
  connection,
  plans,
  ...openState
}: DialogOpenState & {
  applicationId: number;
  connection: ShopConnection | null;
  plans: readonly Plan[];
}) {
  return (
    <FormDialog {...openState}>
      {(close) =>
        connection && (
          <TestEventForm
            key={connection.id}
            applicationId={applicationId}
            connection={connection}
            plans={plans}
            onDone={close}
          />
        )
      }
    </FormDialog>
  );
}

function TestEventForm({
  applicationId,
  connection,
  plans,
  onDone,
}: {
  applicationId: number;
  connection: ShopConnection;
  plans: readonly Plan[];
  onDone: () => void;
}) {
  const id = useId();
  const ownEmail = useAuth().user?.email;
  const send = useSendShopTestEvent(
    applicationId,
    (order) => SHOP_ORDER_STATUS_LABELS[order.status],
  );
  const planNames = new Map(plans.map((plan) => [plan.id, plan.name]));
  const { fields, setField, bindText, dialogForm } = useMutationForm({
    initialFields: { productId: connection.products[0]?.productId ?? '', buyerEmail: '' },
    validate: (checked: TestEventFields) =>
      checked.productId === '' ? TEST_EVENT_PRODUCT_REQUIRED : null,
    mutation: send,
    toRequest: ({ productId, buyerEmail }) => ({
      connectionId: connection.id,
      request: { productId, ...(buyerEmail.trim() ? { buyerEmail: buyerEmail.trim() } : {}) },
    }),
    onDone,
  });

  return (
    <DialogForm
      {...dialogForm}
      title="Send Test Event"
      description={`A signed sample order sent to ${connection.name}'s URL and processed like the shop's own: the keys are minted and mailed, and the order is marked as a test.`}
      submitLabel="Send Test Event"
    >
      <FormField htmlFor={`${id}-product`} label="Product" isRequired>
        <OptionSelect
          id={`${id}-product`}
          value={fields.productId}
          onValueChange={(productId) => setField('productId', productId)}
          placeholder="Choose a product"
          options={connection.products.map((product) => ({
            value: product.productId,
            label: `${product.productId} → ${planNames.get(product.planId) ?? 'Unknown plan'}`,
          }))}
          aria-required
        />
      </FormField>
      <InputField
        id={`${id}-buyer`}
        label="Buyer e-mail (optional)"
        hint={`Where the keys are mailed. Empty: your own address${ownEmail ? `, ${ownEmail}` : ''}.`}
        type="email"
        {...bindText('buyerEmail')}
        placeholder="buyer@example.com"
        autoComplete="off"
      />
    </DialogForm>
  );
}
