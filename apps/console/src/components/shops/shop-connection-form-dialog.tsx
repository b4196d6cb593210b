import {
  shopLimits,
  shopProviderLabels,
  shopProviders,
  type CreatedShopConnection,
  type ShopConnection,
} from '@latchkey/contracts';
import { Store } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import {
  CreateFormDialog,
  DialogForm,
  EditFormDialog,
  useCreateOrEditForm,
  type CreateOrEditFormProps,
  type FormSave,
} from '@/components/ui/form-dialog.tsx';
import { FormField, InputField, SwitchField } from '@/components/ui/form-field.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { usePlans } from '@/hooks/use-plans.ts';
import { useCreateShopConnection, useUpdateShopConnection } from '@/hooks/use-shops.ts';
import {
  EMPTY_SHOP_CONNECTION_FIELDS,
  hasApiKeyField,
  hasSecretField,
  isSecretRequired,
  shopFieldRefusalOf,
  toCreateShopConnectionRequest,
  toShopConnectionFields,
  toShopFieldProblem,
  toUpdateShopConnectionRequest,
  validateShopConnection,
  type ShopConnectionFields,
} from './shop-display.ts';
import { ShopProductMappingEditor } from './shop-product-mapping-editor.tsx';
import { SHOP_URL_WORDS, shopProviderGuides, ShopProviderSteps } from './shop-provider-guides.tsx';

export const CONNECT_SHOP_LABEL = 'Connect a Shop';

const isFieldRefusal = (error: unknown) => shopFieldRefusalOf(error) !== null;

/** The Connect a Shop dialog, opened from its own button; `onCreated` shows what to paste. */
export function CreateShopConnectionDialog({
  applicationId,
  trigger,
  onCreated,
}: {
  applicationId: number;
  trigger?: ReactNode;
  onCreated: (created: CreatedShopConnection) => void;
}) {
  const create = useCreateShopConnection(applicationId, isFieldRefusal);
  // The dialog closes on success; the created connection (its one-time secret) goes up.
  const save: FormSave<ShopConnectionFields> = {
    isPending: create.isPending,
    mutate: (fields, { onSuccess }) =>
      create.mutate(toCreateShopConnectionRequest(fields), {
        onSuccess: (created) => {
          onSuccess();
          onCreated(created);
        },
      }),
  };

  return (
    <CreateFormDialog
      label={CONNECT_SHOP_LABEL}
      triggerIcon={Store}
      trigger={trigger}
      className="sm:max-w-3xl"
      description="A shop calls this connection's URL when an order is paid, renewed or refunded, and Latchkey mints, mails, extends or bans the keys of the plan its product is mapped to."
      initialFields={EMPTY_SHOP_CONNECTION_FIELDS}
      mutation={save}
      toRequest={(fields) => fields}
    >
      {(form) => (
        <ShopConnectionForm
          {...form}
          applicationId={applicationId}
          connection={null}
          refusal={create.isError ? shopFieldRefusalOf(create.error) : null}
        />
      )}
    </CreateFormDialog>
  );
}

/** The Edit dialog of the connection a row asked for; a blank secret keeps the current one. */
export function EditShopConnectionDialog({
  applicationId,
  connection,
  ...openState
}: DialogOpenState & { applicationId: number; connection: ShopConnection | null }) {
  const update = useUpdateShopConnection(applicationId, isFieldRefusal);
  return (
    <EditFormDialog
      item={connection}
      {...openState}
      className="sm:max-w-3xl"
      title="Edit Shop Connection"
      description="Changes apply to the shop's next events. Orders already received keep the keys they minted."
      toFields={toShopConnectionFields}
      mutation={update}
      toRequest={(fields, { id }) => ({
        connectionId: id,
        changes: toUpdateShopConnectionRequest(fields),
      })}
    >
      {(form, edited) => (
        <ShopConnectionForm
          {...form}
          applicationId={applicationId}
          connection={edited}
          refusal={update.isError ? shopFieldRefusalOf(update.error) : null}
        />
      )}
    </EditFormDialog>
  );
}

function secretHintOf(fields: ShopConnectionFields, connection: ShopConnection | null): string {
  const guide = shopProviderGuides[fields.provider].secretHint;
  if (!connection) return guide;
  const current = connection.secretHint ? `Current secret ends in ${connection.secretHint}. ` : '';
  return `${current}Leave blank to keep it.`;
}

function ShopConnectionForm({
  applicationId,
  connection,
  refusal,
  ...form
}: CreateOrEditFormProps<ShopConnectionFields> & {
  applicationId: number;
  /** The connection edited; null while connecting a new one. */
  connection: ShopConnection | null;
  /** The server's last refusal that names a field. */
  refusal: ReturnType<typeof shopFieldRefusalOf>;
}) {
  const id = useId();
  const isCreating = connection === null;
  const plans = usePlans(applicationId).data ?? [];
  const { fields, setField, bindText, bindChecked, dialogForm } = useCreateOrEditForm(
    form,
    (checked) => validateShopConnection(checked, { isCreating }),
  );
  const { provider } = fields;
  // The form's own check and the server's refusal both name their field: shown at it.
  const checked = toShopFieldProblem(dialogForm.validationError);
  const problem = dialogForm.validationError ? checked : refusal;
  const problemAt = (field: string) => (problem?.field === field ? problem.message : null);
  const guide = shopProviderGuides[provider];

  return (
    <DialogForm
      {...dialogForm}
      // A problem with a field is said at that field, not above the form.
      validationError={checked ? null : dialogForm.validationError}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField htmlFor={`${id}-provider`} label="Shop">
          {isCreating ? (
            <OptionSelect
              id={`${id}-provider`}
              value={provider}
              onValueChange={(chosen) => setField('provider', chosen)}
              options={labelledOptions(shopProviders, shopProviderLabels)}
            />
          ) : (
            <output id={`${id}-provider`} className="py-2 text-sm">
              {shopProviderLabels[provider]}
            </output>
          )}
        </FormField>
        <FieldWithProblem problem={problemAt('name')} id={`${id}-name`}>
          <InputField
            id={`${id}-name`}
            label="Name"
            isRequired
            {...bindText('name')}
            placeholder={`${shopProviderLabels[provider]} store`}
            maxLength={shopLimits.name}
            autoComplete="off"
            autoFocus={!isCreating}
            aria-invalid={problemAt('name') !== null || undefined}
          />
        </FieldWithProblem>
      </div>

      <SwitchField
        id={`${id}-test-mode`}
        label="Test mode"
        hint="For the shop's test or sandbox mode: its orders are marked as test orders."
        {...bindChecked('testMode')}
      />

      {hasSecretField(provider) && (
        <FieldWithProblem problem={problemAt('secret')} id={`${id}-secret`}>
          <InputField
            id={`${id}-secret`}
            label={
              isCreating && !isSecretRequired(provider)
                ? 'Signing secret (optional)'
                : 'Signing secret'
            }
            isRequired={isCreating && isSecretRequired(provider)}
            hint={secretHintOf(fields, connection)}
            {...bindText('secret')}
            type="password"
            maxLength={shopLimits.secret}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problemAt('secret') !== null || undefined}
          />
        </FieldWithProblem>
      )}

      {hasApiKeyField(provider) && (
        <FieldWithProblem problem={problemAt('apiKey')} id={`${id}-api-key`}>
          <InputField
            id={`${id}-api-key`}
            label="API key (optional)"
            hint={
              connection?.hasApiKey
                ? 'An API key is saved. Leave blank to keep it.'
                : 'A restricted key with read access to Checkout Sessions, to read what a session sold when it carries no latchkey_product metadata.'
            }
            {...bindText('apiKey')}
            type="password"
            maxLength={shopLimits.apiKey}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problemAt('apiKey') !== null || undefined}
          />
        </FieldWithProblem>
      )}

      <ShopProductMappingEditor
        id={`${id}-products`}
        rows={fields.products}
        plans={plans}
        naming={guide.product}
        problem={problem?.field === 'products' ? problem : null}
        onChange={(products) => setField('products', products)}
      />

      <section aria-labelledby={`${id}-steps`} className="grid gap-2">
        <h3 id={`${id}-steps`} className="text-sm font-medium">
          In {shopProviderLabels[provider]}
        </h3>
        <ShopProviderSteps
          provider={provider}
          urlWords={isCreating ? SHOP_URL_WORDS.beforeConnecting : SHOP_URL_WORDS.onItsCard}
        />
      </section>
    </DialogForm>
  );
}

/** A field with the problem said under it, announced as it appears. */
function FieldWithProblem({
  id,
  problem,
  children,
}: {
  id: string;
  problem: string | null;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      {children}
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
