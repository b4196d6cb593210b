import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { seatLeases } from '../../db/schema/index.ts';

/** Frees a lease at once: a login refused after it took its seat gives the seat back. */
export async function releaseSeat(db: Database, leaseId: string): Promise<void> {
  await db.delete(seatLeases).where(eq(seatLeases.id, leaseId));
}
