/**
 * Which stored password hashes this installation will ever verify, and why not the others.
 *
 * A hash carries its own cost: an argon2 PHC string names its memory, passes and lanes, a
 * bcrypt string its cost. Our own hashes use argon2id at OWASP's baseline, but users imported
 * from another service arrive with whatever their export holds, and verifying a hash runs its
 * parameters as written: one argon2 hash naming 4 TiB of memory, or a bcrypt cost of 31 (about
 * 38 hours of a core), would take the machine down for every vendor. So a foreign hash is
 * verified only within a small, documented multiple of our own cost, checked before any work:
 *
 * - argon2 (id, i or d; version 0x13 or 0x10): memory at most 4× ours (76 MiB), passes at most
 *   4× ours (8), lanes at most 4, and memory × passes at most 8× ours (a hash of at most about
 *   100 ms here, against our 12 ms). PHP's `password_hash(…, PASSWORD_ARGON2ID)` defaults (64 MiB,
 *   4 passes, 1 lane: 6.7× ours) and libsodium's "interactive" limits (64 MiB, 2 passes)
 *   pass; its "moderate" ones (256 MiB) do not.
 * - bcrypt (`$2a$`, `$2b$`, `$2y$`, which the bcrypt libraries define as the same algorithm):
 *   cost 4 to 12. PHP's default, which KeyAuth's exports carry, is 10 (about 60 ms here); 12 is
 *   the highest default of the common frameworks (about 240 ms). `$2x$` is refused: it names
 *   crypt_blowfish's sign-extension bug for non-ASCII passwords, which no library we run
 *   reproduces, so such a hash could wrongly refuse or accept a password.
 *
 * The importer refuses a row whose hash is out of bounds (the preview says why), and login
 * never verifies one whatever the database holds: it answers as for a wrong password, after
 * the same work as for an unknown user. A successful login replaces any foreign hash with our
 * own argon2id, so none of these outlives its user's next sign-in.
 */

/** The installation's own argon2id parameters (OWASP's baseline), which the bounds multiply. */
export const OWN_ARGON2_COST = { memoryKib: 19456, passes: 2, lanes: 1 } as const;

/** What one foreign hash may cost, against OWN_ARGON2_COST (see the comment above). */
export const FOREIGN_HASH_BOUNDS = {
  argon2MemoryKib: OWN_ARGON2_COST.memoryKib * 4,
  argon2Passes: OWN_ARGON2_COST.passes * 4,
  argon2Lanes: 4,
  argon2Work: OWN_ARGON2_COST.memoryKib * OWN_ARGON2_COST.passes * 8,
  bcryptMinCost: 4,
  bcryptMaxCost: 12,
} as const;

const BCRYPT_HASH = /^\$(2[abxy])\$(\d{2})\$[./A-Za-z0-9]{53}$/;
/**
 * A PHC argon2 string with its three parameters only (no `keyid` or `data`), a 8- to 64-byte
 * salt and a 16- to 64-byte digest in unpadded base64: larger ones are not a hash anyone makes.
 */
const ARGON2_HASH =
  /^\$argon2(id|i|d)\$v=(\d{1,3})\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$([A-Za-z0-9+/]{11,86})\$([A-Za-z0-9+/]{22,86})$/;

export type PasswordHashKind = 'argon2' | 'bcrypt';

export type PasswordHashCheck =
  { isVerifiable: true; kind: PasswordHashKind } | { isVerifiable: false; reason: string };

/**
 * Whether a stored hash may be verified here: its format is one we know and its cost is within
 * FOREIGN_HASH_BOUNDS. The reason names the parameter, for the import preview.
 */
export function checkPasswordHash(storedHash: string): PasswordHashCheck {
  const bcrypt = BCRYPT_HASH.exec(storedHash);
  if (bcrypt) return checkBcrypt(bcrypt[1]!, Number(bcrypt[2]));
  const argon2 = ARGON2_HASH.exec(storedHash);
  if (argon2) {
    return checkArgon2({
      version: Number(argon2[2]),
      memoryKib: Number(argon2[3]),
      passes: Number(argon2[4]),
      lanes: Number(argon2[5]),
    });
  }
  return { isVerifiable: false, reason: 'is not an argon2 or bcrypt hash' };
}

function checkBcrypt(variant: string, cost: number): PasswordHashCheck {
  const { bcryptMinCost, bcryptMaxCost } = FOREIGN_HASH_BOUNDS;
  if (variant === '2x') {
    return {
      isVerifiable: false,
      reason: 'is a $2x$ bcrypt hash (the variant of an old bug), which cannot be verified here',
    };
  }
  if (cost < bcryptMinCost || cost > bcryptMaxCost) {
    return {
      isVerifiable: false,
      reason: `has bcrypt cost ${cost}, outside ${bcryptMinCost} to ${bcryptMaxCost}`,
    };
  }
  return { isVerifiable: true, kind: 'bcrypt' };
}

function checkArgon2(cost: {
  version: number;
  memoryKib: number;
  passes: number;
  lanes: number;
}): PasswordHashCheck {
  const bounds = FOREIGN_HASH_BOUNDS;
  const refuse = (reason: string): PasswordHashCheck => ({ isVerifiable: false, reason });
  if (cost.version !== 19 && cost.version !== 16) {
    return refuse(`has argon2 version ${cost.version}, not 19 or 16`);
  }
  if (cost.lanes < 1 || cost.lanes > bounds.argon2Lanes) {
    return refuse(`has argon2 parallelism ${cost.lanes}, outside 1 to ${bounds.argon2Lanes}`);
  }
  // Argon2 needs at least 8 KiB per lane; below that the library refuses the hash anyway.
  if (cost.memoryKib < 8 * cost.lanes || cost.memoryKib > bounds.argon2MemoryKib) {
    return refuse(
      `has argon2 memory ${cost.memoryKib} KiB, outside ${8 * cost.lanes} to ${bounds.argon2MemoryKib}`,
    );
  }
  if (cost.passes < 1 || cost.passes > bounds.argon2Passes) {
    return refuse(`has argon2 iterations ${cost.passes}, outside 1 to ${bounds.argon2Passes}`);
  }
  if (cost.memoryKib * cost.passes > bounds.argon2Work) {
    return refuse(
      `has argon2 memory × iterations ${cost.memoryKib * cost.passes} KiB, over ${bounds.argon2Work}`,
    );
  }
  return { isVerifiable: true, kind: 'argon2' };
}
