import type { Application } from '@latchkey/contracts';
import { ExternalLink } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { InputField, SwitchField } from '@/components/ui/form-field.tsx';
import { getPortalUrl, type PortalSettingsFields } from './portal-settings.ts';
import { SettingsGroup } from './settings-group.tsx';

/**
 * Why the link may not open the portal now. The link answers by what is saved, not by the
 * switch, so an unsaved change is told apart from the saved state.
 */
function describePortalLinkState(isSavedEnabled: boolean, isEnabled: boolean): string | null {
  if (isSavedEnabled) {
    return isEnabled
      ? null
      : 'This link stops working once you update the application with the portal off.';
  }
  return isEnabled
    ? 'The portal is off until you update the application; then this link opens it.'
    : 'The portal is off: this link works once you turn the portal on and update the application.';
}

/**
 * The End-user portal group of the Settings dialog: the switch, the name the portal shows, and
 * its link (always shown, so the owner can prepare it before turning it on).
 */
export function PortalSettingsGroup({
  formId,
  application,
  fields,
  problems,
  onChange,
}: {
  formId: string;
  /** The application as saved: its portal's address and whether the portal is on now. */
  application: Pick<Application, 'name' | 'portalEnabled' | 'portalPublicId'>;
  fields: PortalSettingsFields;
  /** What stopped the last save, by the request field it is about. */
  problems: Partial<Record<string, string>>;
  onChange: (fields: PortalSettingsFields) => void;
}) {
  const id = `${formId}-portal`;
  const portalUrl = getPortalUrl(application.portalPublicId);
  const linkState = describePortalLinkState(application.portalEnabled, fields.portalEnabled);

  return (
    <SettingsGroup
      id={id}
      title="End-user portal"
      description="A page of its own where your users look after their account, so they need not ask you."
    >
      <SwitchField
        id={`${id}-enabled`}
        label="Turn on the end-user portal"
        hint="End users sign in with their username and password to see their account, release a device and redeem a licence key."
        checked={fields.portalEnabled}
        onCheckedChange={(checked) => onChange({ ...fields, portalEnabled: checked })}
      />
      {/* No maxLength: a pasted name that is too long is told, not silently cut. */}
      <InputField
        id={`${id}-name`}
        label="Portal name"
        hint="Shown at the top of the portal; empty uses the application's name."
        value={fields.portalName}
        onValueChange={(value) => onChange({ ...fields, portalName: value })}
        placeholder={application.name}
        autoComplete="off"
        problem={problems.portalName}
      />
      <div className="grid gap-2">
        <p id={`${id}-link-label`} className="text-sm font-medium">
          Portal link
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <code
            data-testid="portal-link"
            aria-labelledby={`${id}-link-label`}
            className="min-w-0 flex-1 rounded-md border border-input bg-muted/40 px-3 py-2 font-mono text-xs break-all"
          >
            {portalUrl}
          </code>
          <div className="flex items-center gap-1">
            <CopyButton value={portalUrl} label="Copy portal link" />
            <Button asChild variant="outline" size="sm">
              <a
                href={portalUrl}
                target="_blank"
                rel="noopener"
                aria-label="Open the portal in a new tab"
                aria-describedby={linkState ? `${id}-link-state` : undefined}
              >
                <ExternalLink aria-hidden="true" />
                Open
              </a>
            </Button>
          </div>
        </div>
        {linkState && (
          <p id={`${id}-link-state`} className="text-xs text-muted-foreground">
            {linkState}
          </p>
        )}
      </div>
    </SettingsGroup>
  );
}
