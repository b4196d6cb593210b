import type { ActivityRecorder } from '../activity/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import type { EndUserChangeContext } from '../../ownership/owned-app-user.ts';

/**
 * What an owner verb that binds or releases devices needs: the end-user change context, and
 * the recorder to tell of the device events it wrote in its own transaction.
 */
export type DeviceChangeContext = EndUserChangeContext & {
  activity: Pick<ActivityRecorder, 'noteWritten'>;
};

/** Device events written in a transaction, told to the recorder once it has committed. */
export interface WrittenDeviceEvents {
  records: ActivityRecord[];
  queuedDeliveries: number;
}

export function noteDeviceEvents(ctx: DeviceChangeContext, written: WrittenDeviceEvents): void {
  written.records.forEach((record, index) =>
    ctx.activity.noteWritten(
      record,
      index === written.records.length - 1 ? written.queuedDeliveries : 0,
    ),
  );
}
