import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Where Linux (and most BSDs with D-Bus) keep the machine's identifier, the first found. */
const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

/**
 * The machine id a program sends as its HWID: SHA-256 (hex) of
 * `latchkey-machine-id-v1.{public key, lower-case hex}.{raw id, trimmed}`. Hashed with the
 * application's identity so no server, and no two vendors, see the machine's own identifier
 * or can match one machine across applications; the same in every Latchkey SDK.
 */
export function hashMachineId(rawMachineId: string, publicKeyHex: string): string {
  return createHash('sha256')
    .update(`latchkey-machine-id-v1.${publicKeyHex.toLowerCase()}.${rawMachineId.trim()}`, 'utf8')
    .digest('hex');
}

/**
 * This machine's own identifier: Windows' `MachineGuid`, macOS's `IOPlatformUUID`, Linux's
 * `/etc/machine-id`; where none can be read, the host name stands in (less stable: it can be
 * renamed). Stable across reboots and program updates.
 */
export function readRawMachineId(): string {
  return readPlatformMachineId() ?? `host:${hostname()}`;
}

function readPlatformMachineId(): string | null {
  try {
    if (process.platform === 'win32') {
      // /reg:64: a 32-bit Node on 64-bit Windows would otherwise read the redirected view.
      const output = execFileSync(
        'reg',
        ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid', '/reg:64'],
        { encoding: 'utf8', timeout: 5000, windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      return /MachineGuid\s+REG_SZ\s+(\S+)/.exec(output)?.[1] ?? null;
    }
    if (process.platform === 'darwin') {
      const output = execFileSync('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice'], {
        encoding: 'utf8',
        timeout: 5000,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      return /"IOPlatformUUID" = "([^"]+)"/.exec(output)?.[1] ?? null;
    }
  } catch {
    return null;
  }
  for (const path of MACHINE_ID_FILES) {
    try {
      const id = readFileSync(path, 'utf8').trim();
      if (id) return id;
    } catch {
      // Not on this system: the next place.
    }
  }
  return null;
}
