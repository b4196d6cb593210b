import { sql, type SQL } from 'drizzle-orm';

/**
 * The select-list columns by which a statement sends a change's announcement
 * (`InlineAnnouncement`): a NOTIFY for each row it answers, so a statement that answers one
 * row when it made the change and none when it did not announces exactly the changes it made.
 * `otherListeners` is its count of the other instances listening; `announced` is to be ignored.
 * A null channel sends nothing (no instance shares changes). The values are SQL, so a prepared
 * statement can pass its placeholders.
 */
export function inlineAnnouncementColumns(values: {
  channel: SQL;
  payload: SQL;
  listenerName: SQL;
}): SQL {
  const channel = sql`${values.channel}::text`;
  return sql`case when ${channel} is not null
                then pg_notify(${channel}, ${values.payload}::text)::text end as announced,
              case when ${channel} is not null
                then count_other_listeners(${values.listenerName}::text) end as "otherListeners"`;
}
