import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationStatsQueryKey, appUsersQueryKey } from '@/hooks/owner-query-keys.ts';
import { startOwnerEventStream } from './owner-event-stream.ts';
import { onOwnerEvent } from './owner-events.ts';

/** The browser's EventSource, as far as the stream uses it (jsdom has none). */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  isClosed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.isClosed = true;
  }
  emit(type: string, data?: unknown) {
    const event = new MessageEvent(type, { data: data === undefined ? '' : JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

describe('the live stream in the console', () => {
  let queryClient: QueryClient;
  let stop: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    queryClient = new QueryClient();
    for (const key of [
      applicationStatsQueryKey(7),
      applicationStatsQueryKey(8),
      appUsersQueryKey(7),
      ['/api/activity-logs'],
      ['/api/webhooks'],
    ]) {
      queryClient.setQueryData(key, { cached: true });
    }
    stop = startOwnerEventStream(queryClient);
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const isStale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;

  it('refreshes what an activity event names, once for a burst, and nothing else', async () => {
    const source = FakeEventSource.opened[0]!;
    expect(source.url).toBe('/api/events');
    const row = {
      id: 1,
      event: 'user_login',
      success: true,
      applicationId: 7,
      application: { name: 'App' },
      appUser: null,
      username: 'ann',
      ipAddress: null,
      errorMessage: null,
      metadata: {},
      createdAt: new Date(0).toISOString(),
    };
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    for (let id = 1; id <= 50; id += 1) source.emit('activity', { ...row, id });
    expect(isStale(applicationStatsQueryKey(7))).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    expect(isStale(applicationStatsQueryKey(7))).toBe(true);
    expect(isStale(appUsersQueryKey(7))).toBe(true);
    expect(isStale(['/api/activity-logs'])).toBe(true);
    expect(isStale(applicationStatsQueryKey(8))).toBe(false);
    expect(isStale(['/api/webhooks'])).toBe(false);
    // One invalidation per family for the fifty rows.
    expect(invalidate.mock.calls.length).toBeLessThanOrEqual(5);
  });

  it("hands events to onOwnerEvent's listeners, and ignores a type it does not know", () => {
    const seen: string[] = [];
    const unsubscribe = onOwnerEvent((event) => seen.push(event.type));
    const source = FakeEventSource.opened[0]!;
    source.emit('bulk_progress', {
      operationId: 'op',
      applicationId: 7,
      action: 'pause',
      total: 2,
      done: 1,
      skipped: 0,
      isFinished: false,
      error: null,
    });
    source.emit('surprise', { anything: true });
    unsubscribe();
    expect(seen).toEqual(['bulk_progress']);
  });

  it('reconnects with a growing delay after errors, and rereads the live lists when back', async () => {
    const first = FakeEventSource.opened[0]!;
    first.emit('open');
    first.emit('error');
    expect(first.isClosed).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeEventSource.opened.length).toBeLessThanOrEqual(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    FakeEventSource.opened[1]!.emit('error');
    // The second delay is at least 1 s (2 s, jittered down to half at most).
    await vi.advanceTimersByTimeAsync(990);
    expect(FakeEventSource.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(FakeEventSource.opened).toHaveLength(3);
    FakeEventSource.opened[2]!.emit('open');
    await vi.advanceTimersByTimeAsync(400);
    expect(isStale(applicationStatsQueryKey(8))).toBe(true);
    expect(isStale(['/api/webhooks'])).toBe(false);
  });
});
