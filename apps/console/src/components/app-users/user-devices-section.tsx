import type { Device } from '@latchkey/contracts';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Button } from '@/components/ui/button.tsx';
import {
  ConfirmDialog,
  ConfirmSubject,
  ConfirmTargetDialog,
} from '@/components/ui/confirm-dialog.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import {
  DEVICES_FETCH_ERROR,
  useRemoveAllDevices,
  useRemoveDevice,
  useUserDevices,
} from '@/hooks/use-devices.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { cn } from '@/lib/utils.ts';
import { formatDeviceSeats } from './app-user-display.ts';
import { describeNoDevices, getDeviceLabel, getDeviceName, getHwidTail } from './device-display.ts';
import { UserDialogSection, type UserSectionProps } from './user-dialog-section.tsx';

function DeviceFacts({ device }: { device: Device }) {
  const facts: [string, string][] = [
    ['First seen', formatDateTime(device.firstSeenAt)],
    ['Last seen', formatDateTime(device.lastSeenAt)],
    ['Last IP', device.lastIp ?? 'Unknown'],
  ];
  // Licensed through the portal's offline activation: it may never have reached us itself.
  if (device.activatedOfflineAt) {
    facts.push(['Activated offline', formatDateTime(device.activatedOfflineAt)]);
  }
  return (
    <dl className="grid min-w-0 gap-x-4 gap-y-1 text-xs sm:grid-cols-3">
      {facts.map(([term, value]) => (
        <div key={term} className="flex min-w-0 gap-1.5 sm:flex-col sm:gap-0">
          <dt className="shrink-0 text-muted-foreground">{term}</dt>
          <dd className="min-w-0 truncate" title={value}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * One device of the list: its name and the end of its HWID (the whole one on hover, for screen
 * readers and to copy), Remove, and when it was seen.
 */
function DeviceItem({
  device,
  disabled,
  onRemove,
}: {
  device: Device;
  disabled: boolean;
  onRemove: () => void;
}) {
  return (
    <li
      data-testid={`device-${device.id}`}
      className="grid min-w-0 gap-2 rounded-md border border-border p-3"
    >
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
          <span
            className={cn(
              'max-w-full truncate font-medium',
              device.name === null && 'text-muted-foreground italic',
            )}
            title={device.name ?? undefined}
          >
            {getDeviceName(device)}
          </span>
          <span className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="text-muted-foreground">
              ·
            </span>
            <code title={device.hwid} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
              <span aria-hidden="true">{getHwidTail(device.hwid)}</span>
              {/* The preview is for the eye; a screen reader is given the whole HWID. */}
              <span className="sr-only">HWID {device.hwid}</span>
            </code>
            <CopyButton value={device.hwid} label={`Copy HWID of ${getDeviceLabel(device)}`} />
          </span>
        </div>
        <Button
          variant="outline"
          size="sm"
          aria-label={`Remove ${getDeviceLabel(device)}`}
          className="hover:bg-destructive/10 hover:text-destructive"
          disabled={disabled}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>
      <DeviceFacts device={device} />
    </li>
  );
}

/**
 * The devices an end user's account is bound to, in the Edit User dialog, against their limit
 * ("2 of 3 devices"). The owner removes one, or all, after a confirmation; each removal is
 * saved at once and frees a seat for the next login from a new device.
 */
export function UserDevicesSection({
  applicationId,
  userId,
  username,
  deviceLimit,
  isHwidLockEnabled,
}: UserSectionProps & {
  deviceLimit: number;
  isHwidLockEnabled: boolean;
}) {
  const devicesQuery = useUserDevices(applicationId, userId);
  const removeDevice = useRemoveDevice(applicationId, userId);
  const removeAllDevices = useRemoveAllDevices(applicationId, userId);
  const removing = useDialogTarget<Device>();
  const [isRemoveAllOpen, setIsRemoveAllOpen] = useState(false);

  const devices = devicesQuery.data ?? [];
  const isRemovalPending = removeDevice.isPending || removeAllDevices.isPending;

  const confirmRemove = (device: Device) => removeDevice.mutate(device.id);

  return (
    <>
      {/* min-w-0 down to each device: a long name or HWID is cut inside the dialog rather than
          widening the dialog's grid past a phone's screen. */}
      <UserDialogSection
        title="Devices"
        titleDetail={
          devicesQuery.isSuccess && (
            <span data-testid="device-seats" className="text-xs text-muted-foreground">
              {formatDeviceSeats({ deviceCount: devices.length, deviceLimit })}
            </span>
          )
        }
        description={
          <>The machines {username} logs in from; removing one frees its seat at once.</>
        }
        actions={
          devices.length > 0 && (
            <Button
              variant="outline"
              size="sm"
              disabled={isRemovalPending}
              onClick={() => setIsRemoveAllOpen(true)}
            >
              <Trash2 aria-hidden="true" />
              Remove all
            </Button>
          )
        }
        query={devicesQuery}
        loadingLabel="Loading devices"
        fetchErrorMessage={DEVICES_FETCH_ERROR}
        skeletonClassName="h-16"
        className="min-w-0"
      >
        {() =>
          devices.length === 0 ? (
            <div className="grid gap-1 text-sm">
              <p className="font-medium">No devices yet</p>
              <p className="text-muted-foreground">{describeNoDevices(isHwidLockEnabled)}</p>
            </div>
          ) : (
            <ul aria-label={`Devices of ${username}`} className="grid min-w-0 gap-2">
              {devices.map((device) => (
                <DeviceItem
                  key={device.id}
                  device={device}
                  disabled={isRemovalPending}
                  onRemove={() => removing.open(device)}
                />
              ))}
            </ul>
          )
        }
      </UserDialogSection>

      <ConfirmTargetDialog
        dialog={removing}
        title="Remove device?"
        description={(device) => (
          <>
            <ConfirmSubject>{getDeviceLabel(device)}</ConfirmSubject> is released from {username}
            &apos;s account and its sessions end. {username} can log in from another device
            afterwards, which then takes the free seat.
          </>
        )}
        confirmLabel="Remove Device"
        onConfirm={confirmRemove}
      />
      <ConfirmDialog
        open={isRemoveAllOpen}
        onOpenChange={setIsRemoveAllOpen}
        title="Remove all devices?"
        description={
          <>
            Every device of <strong className="font-medium text-foreground">{username}</strong> is
            released and their sessions end. {username} can log in from another device afterwards,
            which is then bound in their place.
          </>
        }
        confirmLabel="Remove All Devices"
        onConfirm={() => removeAllDevices.mutate()}
      />
    </>
  );
}
